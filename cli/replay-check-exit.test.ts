// `replay --check` is for CI: 0 identical, 1 diverged, 2 anything that kept it from checking. A run id
// with no run, a run still running and imported code refused without --trust exited 1 — read by CI as
// "the replay diverged". They exit 2 now, with the same message; without --check, replay (like fork
// and every other command) still exits 1 for them: there 1 means the command did not succeed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';
import { openStore } from '../lib/store';
import { ev, makeRun } from '../lib/store/testing/fixtures';
import { MUTATIONS } from '../lib/server/runs/replay-mutations';

const { dataDir, env, cleanup } = tempCliEnv('sc-replay-check-exit-');
after(cleanup);

/** `replay --check` exits 2, `replay` alone 1, both saying `message` */
async function refused(args: string[], message: RegExp, runEnv = env) {
  const check = await runCli(['replay', '--check', ...args], { env: runEnv });
  assert.equal(check.code, 2, check.out + check.err);
  assert.match(check.err, message);
  assert.doesNotMatch(check.err, /internal error|^usage:/m);
  const plain = await runCli(['replay', ...args], { env: runEnv });
  assert.equal(plain.code, 1, plain.out + plain.err);
  assert.match(plain.err, message);
}

test('replay --check of a run id with no run exits 2 (--json: the error on stdout)', async () => {
  await refused(['run_nope'], /No run with id run_nope\./);
  const json = await runCli(['replay', '--check', 'run_nope', '--json'], { env });
  assert.equal(json.code, 2, json.err);
  assert.equal(JSON.parse(json.out).error.code, 'run_not_found');
});

test('replay --check of a run still running exits 2', async () => {
  const store = await openStore({ dataDir });
  const run = makeRun({ status: 'running' });
  try {
    await store.createRun(run, { events: [ev(run.id, 1)], snapshot: { runId: run.id, currentPhase: 'draft', seq: 1, data: {} } });
  } finally {
    await store.close();
  }
  await refused([run.id], new RegExp(`Run ${run.id} is still running`));
});

test('replay --check of imported code where no sandbox works, without --trust, exits 2', async () => {
  // blog_writer's postprocessor runs python steps: with the sandbox off, they run only with --trust
  await refused([path.resolve('fixtures/replay/blog_writer.json')], /runs code of an imported skill version .* pass --trust/, { ...env, STAGECRAFT_SANDBOX: 'off' });
});

// Several runs: each run's result is printed once it is known, so one run's error no longer hides
// another's divergence (it was printed only after every run had replayed, and never when one threw).
// --check exits 1 when any run diverged, else 2 when any could not be checked, else 0.
const fixture = path.resolve('fixtures/replay/code_review.json');

/** code_review with a postprocessor step changed: its fixture diverges at __post__/2 */
function mutatedCodeReview(): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'sc-replay-check-mutant-')), 'code_review');
  cpSync(path.resolve('examples/code_review'), dir, { recursive: true });
  MUTATIONS.code_review[0].apply(dir);
  after(() => rmSync(path.dirname(dir), { recursive: true, force: true }));
  return dir;
}

test('replay --check of several runs: a divergence is printed, and exits 1, whatever error another run met', async () => {
  const skill = mutatedCodeReview();
  for (const args of [[fixture, 'run_nope'], ['run_nope', fixture]]) {
    const r = await runCli(['replay', '--check', ...args, '--skill', skill], { env });
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /: diverged at __post__\/2 — /);
    assert.match(r.err, /run_nope: No run with id run_nope\./);
    assert.doesNotMatch(r.err, /internal error|^usage:/m);
  }
  const json = await runCli(['replay', '--check', fixture, 'run_nope', '--skill', skill, '--json'], { env });
  assert.equal(json.code, 1, json.err);
  const body = JSON.parse(json.out);
  assert.equal(body.identical, false);
  assert.deepEqual(body.replays.map((r: { verdict?: string; error?: { code: string } }) => r.verdict ?? r.error?.code), ['diverged', 'run_not_found']);
});

test('replay --check of several runs: identical ones and one that could not be checked exit 2; replay alone 1', async () => {
  const r = await runCli(['replay', '--check', fixture, 'run_nope'], { env });
  assert.equal(r.code, 2, r.out + r.err);
  assert.match(r.out, /: identical — /);
  assert.match(r.err, /run_nope: No run with id run_nope\./);
  const plain = await runCli(['replay', fixture, 'run_nope'], { env });
  assert.equal(plain.code, 1, plain.out + plain.err);
  assert.match(plain.out, /: identical — /);
  const both = await runCli(['replay', '--check', fixture, fixture], { env });
  assert.equal(both.code, 0, both.out + both.err);
});
