// `replay RUN --skill DIR` (and `fork`) with a folder of another skill than the run's replayed the run's
// steps against that skill, saying nothing. It is refused (exit 2), naming both skills and what to pass,
// before the folder is recorded as a version of anything.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { dir: root, env, cleanup } = tempCliEnv('sc-replay-other-skill-');
after(cleanup);

const fixture = path.resolve('fixtures/replay/summarize.json');
const other = path.resolve('examples/code_review');

test('a --skill folder holding a different skill than the run is refused for replay and fork, and nothing is recorded', async () => {
  const imported = await runCli(['import', fixture, '--json'], { env });
  assert.equal(imported.code, 0, imported.err);
  const runId = JSON.parse(imported.out).imported[0].runId as string;
  for (const argv of [
    ['replay', runId, '--skill', other],
    ['replay', '--check', fixture, '--skill', other],
    ['fork', runId, '--at', '__post__', '--skill', other],
  ]) {
    const r = await runCli(argv, { env });
    assert.equal(r.code, 2, argv.join(' ') + r.out + r.err);
    assert.ok(r.err.includes(`Run ${runId} is of skill "summarize", and ${other} holds skill "code_review"`), r.err);
    assert.match(r.err, /`stagecraft pull summarize DIR` writes one\), or leave --skill out/);
    assert.doesNotMatch(r.err, /internal error|^usage:/m);
  }
  const json = await runCli(['replay', runId, '--skill', other, '--json'], { env });
  assert.equal(json.code, 2);
  assert.equal(JSON.parse(json.out).error.code, 'skill_mismatch');
  // refused before the folder was recorded: no skill code_review was made
  assert.equal((await runCli(['pull', 'code_review', path.join(root, 'pulled')], { env })).code, 2);
});

test('a --skill folder of the run\'s own skill still replays, whatever folder it is in', async () => {
  const dir = path.join(root, 'my copy');
  cpSync(path.resolve('examples/summarize'), dir, { recursive: true });
  assert.match(readFileSync(path.join(dir, 'skill.md'), 'utf8'), /^name: summarize$/m);
  writeFileSync(path.join(dir, 'notes.txt'), 'a file the skill does not use\n');
  const r = await runCli(['replay', '--check', fixture, '--skill', dir], { env });
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /identical/);
});

test('of several runs, a --skill folder of one run\'s skill fails the runs of other skills alone', async () => {
  const codeReview = path.resolve('fixtures/replay/code_review.json');
  for (const args of [[fixture, codeReview], [codeReview, fixture]]) {
    const r = await runCli(['replay', '--check', ...args, '--skill', other], { env });
    assert.equal(r.code, 2, r.out + r.err); // none diverged, one not checked
    assert.match(r.out, /\(code_review, version [0-9a-f]{12}\): identical — /);
    assert.match(r.err, /is of skill "summarize", and .* holds skill "code_review"/);
  }
});

// without --skill a run is replayed (or forked) with its own folder as it is now: one given another
// skill's skill.md since was replayed as that skill, saying nothing
test("a run's own folder that now holds another skill is refused without --skill, naming the --version it recorded", async () => {
  const dir = path.join(root, 'own folder');
  cpSync(path.resolve('examples/summarize'), dir, { recursive: true });
  // a version of its own: the same files as the imported fixture's would be taken for that (imported) version
  writeFileSync(path.join(dir, 'notes.txt'), 'this folder is the run\'s own\n');
  const ran = await runCli(['run', dir, '--json'], { env });
  assert.equal(ran.code, 0, ran.err);
  const runId = JSON.parse(ran.out).runId as string;
  writeFileSync(path.join(dir, 'skill.md'), readFileSync(path.join(dir, 'skill.md'), 'utf8').replace(/^name: summarize$/m, 'name: renamed_away'));
  for (const argv of [['replay', runId], ['fork', runId, '--at', '__post__']]) {
    const r = await runCli(argv, { env });
    assert.equal(r.code, 2, argv.join(' ') + r.out + r.err);
    assert.ok(r.err.includes(`Run ${runId} is of skill "summarize", and its folder ${dir} now holds skill "renamed_away"`), r.err);
    const hash = /Pass --version ([0-9a-f]{12}) to use the version the run recorded, or --skill DIR with a folder of "summarize"/.exec(r.err)?.[1];
    assert.ok(hash, r.err);
    if (argv[0] === 'replay') {
      const recorded = await runCli(['replay', runId, '--version', hash], { env });
      assert.equal(recorded.code, 0, recorded.err);
      assert.match(recorded.out, /identical/);
    }
  }
});
