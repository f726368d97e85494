// `replay --check` is for CI: 0 identical, 1 diverged, 2 anything that kept it from checking. A run id
// with no run, a run still running and imported code refused without --trust exited 1 — read by CI as
// "the replay diverged". They exit 2 now, with the same message; without --check, replay (like fork
// and every other command) still exits 1 for them: there 1 means the command did not succeed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from './testing/spawn-cli';
import { openStore } from '../lib/store';
import { ev, makeRun } from '../lib/store/testing/fixtures';

const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-replay-check-exit-'));
const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: dataDir };
delete env.DATABASE_URL;
after(() => rmSync(dataDir, { recursive: true, force: true }));

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
