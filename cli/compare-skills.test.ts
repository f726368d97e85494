// `stagecraft compare` names each run's skill, and says so when the two runs are of different
// skills (their steps then line up by position name only: a "first divergence" between two skills
// is no change to look for); two runs of one skill get no such line. On the embedded store.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { env, cleanup } = tempCliEnv('sc-compare-skills-');
after(cleanup);

async function run(example: string): Promise<string> {
  const r = await runCli(['run', `examples/${example}`, '--input', `examples/${example}/input.json`, '--json'], { env });
  assert.equal(r.code, 0, r.out + r.err);
  return JSON.parse(r.out).runId as string;
}

test('compare names the skills, and says when the two runs are of different skills', async () => {
  const a = await run('summarize');
  const b = await run('code_review');
  const other = await runCli(['compare', a, b], { env });
  assert.equal(other.code, 0, other.err);
  assert.match(other.out, /^skill\s+summarize\s+code_review$/m);
  assert.match(other.out, /A is a run of summarize and B a run of code_review: steps of two skills are aligned by position name only\./);

  const a2 = await run('summarize');
  const same = await runCli(['compare', a, a2], { env });
  assert.equal(same.code, 0, same.err);
  assert.match(same.out, /^skill\s+summarize\s+summarize$/m);
  assert.doesNotMatch(same.out, /A is a run of/);
  assert.doesNotMatch(same.out, /the same run/);
  assert.equal(JSON.parse((await runCli(['compare', a, a2, '--json'], { env })).out).sameRun, false);
});

// a run beside itself answered "identical" with no word that it is one run (the page says so)
test('compare of a run with itself: identical as before (exit 0), and said to be the same run', async () => {
  const a = await run('summarize');
  const text = await runCli(['compare', a, a], { env });
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, new RegExp(`^A and B are the same run, ${a}: name another run for one side\\.\nidentical: every step and the outcome are the same$`, 'm'));
  const json = await runCli(['compare', a, a, '--json'], { env });
  assert.equal(json.code, 0, json.err);
  const view = JSON.parse(json.out);
  assert.deepEqual([view.identical, view.sameRun, view.firstDivergence], [true, true, null]);
});
