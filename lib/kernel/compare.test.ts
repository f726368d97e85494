// compareLogs: a step that fails the same way from another bundle folder (another version's copy,
// or the same run imported on another installation) is the same step, not a divergence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareLogs } from './compare';
import { EVENT } from './events';
import type { RunEvent } from './ports';

/** a run whose postprocessor's python step raised, executed from `dir` */
function failedRun(runId: string, dir: string, line = 3): RunEvent[] {
  const file = `${dir}/total.py`;
  const error = {
    code: 'code_error',
    message: `python function total in ${file} raised KeyError: 'count' (at ${file}:${line})`,
    module: file,
    where: `${file}:${line}`,
    traceback: `Traceback (most recent call last):\n  File "${file}", line ${line}, in total\nKeyError: 'count'`,
  };
  const ev = (seq: number, type: string, data: RunEvent['data']): RunEvent => ({ runId, seq, type, at: 1000 + seq, data });
  return [
    ev(1, EVENT.runStarted, { skill: 'tally', skillHash: 'h', bundleDir: dir }),
    ev(2, EVENT.stepCompleted, { kind: 'processor', position: '__post__/0', status: 'failed', output: { error } }),
    ev(3, EVENT.runAborted, { error: { ...error, code: 'workflow_aborted', position: '__post__/0' } }),
  ];
}

test('the same error raised from another bundle folder is no divergence', () => {
  const a = failedRun('run_a', '/srv/one/bundles/aaaa');
  const b = failedRun('run_b', '/home/two/data/bundles/bbbb');
  assert.deepEqual(compareLogs(a, b).divergences, []);
});

test('an error raised elsewhere in the bundle file is still a divergence', () => {
  const a = failedRun('run_a', '/srv/one/bundles/aaaa', 3);
  const b = failedRun('run_b', '/home/two/data/bundles/bbbb', 4);
  const d = compareLogs(a, b).divergences;
  assert.equal(d.length, 1);
  assert.equal(d[0].position, '__post__/0');
  // the diff names what changed (the line), not the folders
  assert.doesNotMatch(JSON.stringify(d[0].diff), /bundles/);
  // nor do the values shown whole beside it (the server's folders never reach the browser)
  assert.doesNotMatch(JSON.stringify(d), /bundles/);
  assert.match(JSON.stringify(d[0].b), /total\.py:4/);
});

test("an outcome that changed says B's error in one line, its bundle paths relative (as the run's page says them)", () => {
  const dir = '/tmp/sc-e2e-x/bundles/bbbb';
  const b = failedRun('run_b', dir);
  const end = b[2];
  b[2] = { ...end, data: { error: { ...(end.data.error as object), message: `postprocessor step 0 failed: python function total in ${dir}/total.py raised KeyError: 'count'\nTraceback (most recent call last):\n  File "${dir}/total.py", line 3` } } };
  const ok = (seq: number, type: string, data: RunEvent['data']): RunEvent => ({ runId: 'run_a', seq, type, at: 1000 + seq, data });
  const a = [ok(1, EVENT.runStarted, { skill: 'tally', skillHash: 'h', bundleDir: '/srv/one/bundles/aaaa' }), ok(2, EVENT.runCompleted, { output: { total: 1 }, error: null })];
  const outcome = compareLogs(a, b).divergences.find((d) => d.change === 'outcome');
  assert.equal(outcome?.message, "the run is aborted where A completed: postprocessor step 0 failed: python function total in total.py raised KeyError: 'count'");
});

test('a step whose output changed only under a __proto__ key is a divergence, and its diff says what changed', () => {
  // JSON.parse makes `__proto__` an own key of a step's output: the comparison assigned it as one, set a prototype
  // instead, and a replay whose step returned another value there was reported identical
  const run = (runId: string, output: string): RunEvent[] => [
    { runId, seq: 1, type: EVENT.runStarted, at: 1001, data: { skill: 'tally', skillHash: 'h', bundleDir: '/b' } },
    { runId, seq: 2, type: EVENT.stepCompleted, at: 1002, data: { kind: 'processor', position: '__post__/0', status: 'ok', output: JSON.parse(output) } },
  ];
  const d = compareLogs(run('run_a', '{"x":1,"__proto__":{"y":1}}'), run('run_b', '{"x":1,"__proto__":{"y":2}}')).divergences;
  assert.equal(d.length, 1);
  assert.equal(d[0].position, '__post__/0');
  assert.equal(JSON.stringify(d[0].diff), '{"__proto__":{"y":[1,2]}}');
});

test("a validate that passed is said to have passed beside the other run's error, not shown as a null", () => {
  const ev = (runId: string, seq: number, type: string, data: RunEvent['data']): RunEvent => ({ runId, seq, type, at: 1000 + seq, data });
  const post0 = { kind: 'processor', position: '__post__/0', type: 'python', status: 'ok', output: { word_count: 3 } };
  const error = { code: 'validation_failed', message: 'validate: /word_count must be >= 5' };
  const a = [
    ev('run_a', 1, EVENT.runStarted, { skill: 's', skillHash: 'h' }),
    ev('run_a', 2, EVENT.stepCompleted, post0),
    ev('run_a', 3, EVENT.stepCompleted, { kind: 'processor', position: '__post__/1', type: 'validate', status: 'failed', output: { error } }),
    ev('run_a', 4, EVENT.runAborted, { error: { ...error, code: 'workflow_aborted', position: '__post__/1' } }),
  ];
  const b = [
    ev('run_b', 1, EVENT.runStarted, { skill: 's', skillHash: 'h2' }),
    ev('run_b', 2, EVENT.stepCompleted, post0),
    ev('run_b', 3, EVENT.stepCompleted, { kind: 'processor', position: '__post__/1', type: 'validate', status: 'ok', output: null }),
    ev('run_b', 4, EVENT.runCompleted, { output: { word_count: 3 } }),
  ];
  const d = compareLogs(a, b).divergences[0];
  assert.equal(d.position, '__post__/1');
  assert.equal(d.message, '__post__/1 (processor): status failed → ok (B passed — validate records no output)');
  assert.equal(d.b?.said, 'passed — validate records no output');
  assert.equal(d.b?.value, null, 'the value is as recorded');
  assert.equal(d.a?.said, undefined, "A's error says what it did");
  // the other way round: A passed
  const back = compareLogs(b, a).divergences[0];
  assert.equal(back.message, '__post__/1 (processor): status ok → failed (A passed — validate records no output)');
  assert.equal(back.a?.said, 'passed — validate records no output');
});
