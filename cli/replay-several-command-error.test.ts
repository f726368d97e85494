// `replay` of several runs: a mistake in what the command was given (a --skill folder that is no valid
// skill, a --version that names no version) is the same for every run. It was printed once per run,
// prefixed by each run's id, and the command exited 1 as if the runs had failed; it is printed once
// and exits 2, as it does with one run.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { dir, env, cleanup } = tempCliEnv('sc-replay-several-');
after(cleanup);

const fixture = path.resolve('fixtures/replay/summarize.json');
const broken = path.join(dir, 'broken');
mkdirSync(broken);
writeFileSync(path.join(broken, 'skill.md'), 'not a skill\n');

const count = (text: string, re: RegExp) => text.split('\n').filter((l) => re.test(l)).length;

test('several runs with a --skill folder that is no valid skill: said once, exit 2 with or without --check', async () => {
  for (const check of [[], ['--check']]) {
    const r = await runCli(['replay', ...check, fixture, fixture, '--skill', broken], { env });
    assert.equal(r.code, 2, r.out + r.err);
    assert.equal(count(r.err, /skill\.md must start with a line/), 1, r.err);
  }
  // --json keeps its shape: each run's entry holds the error
  const json = await runCli(['replay', fixture, fixture, '--skill', broken, '--json'], { env });
  assert.equal(json.code, 2, json.err);
  const answer = JSON.parse(json.out) as { identical: boolean; replays: { run: string; error: { code: string } }[] };
  assert.equal(answer.identical, false);
  assert.deepEqual(answer.replays.map((r) => [r.run, r.error.code]), [[fixture, 'skill_invalid'], [fixture, 'skill_invalid']]);
});

// a hash names a version of one skill: once a run was replayed with it, a run of another skill is that
// run's error (printed with its name; a divergence found would still exit 1), not the command's
test('several runs of two skills with a --version of one: the run it fits replays, the other is its own error', async () => {
  const pushed = await runCli(['push', 'examples/code_review'], { env });
  assert.equal(pushed.code, 0, pushed.err);
  const version = /version ([0-9a-f]{12})/.exec(pushed.out)![1];
  // either order: the run it fits is replayed, the other is its own error, named
  const review = path.resolve('fixtures/replay/code_review.json');
  for (const order of [[review, fixture], [fixture, review]]) {
    const r = await runCli(['replay', '--check', ...order, '--version', version], { env });
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.out, /^run fixture-code_review \(code_review, version [0-9a-f]{12}\): identical/m);
    assert.ok(r.err.includes(`stagecraft: ${fixture}: Skill "summarize": no version of it has that hash (${version}).`), r.err);
  }
});
