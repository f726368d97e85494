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
});
