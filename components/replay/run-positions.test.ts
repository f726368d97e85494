import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RUN_INPUT_POINT } from '@/lib/kernel/fork-edits';
import { POST_PHASE } from '@/lib/kernel/plan';
import { FORK_POINT_FINISH, FORK_POINT_INPUT, type RunView } from '@/lib/views';
import { failedForkPosition, failedPosition, forkPositions } from './run-positions';
import { pointFacts } from './fork-words';

type Run = Parameters<typeof failedPosition>[0] & Parameters<typeof forkPositions>[0];
const base: Run = { status: 'completed', report: null, error: null, steps: [], traces: [] };
const step = (position: string, status = 'ok'): RunView['steps'][number] => ({ phase: position.split('/')[0], index: Number(position.split('/')[1]), type: 'python', status, position, seq: 1 });

test("the views' fork point names are the kernel's", () => {
  assert.equal(FORK_POINT_FINISH, POST_PHASE);
  assert.equal(FORK_POINT_INPUT, RUN_INPUT_POINT);
});

test('where a run failed: its failed step, else where its error says; none for a run that did not fail', () => {
  const report = { failed_step: { phase: '__post__', position: '__post__/0', index: 0, type: 'python', on_error: 'fail', error: 'KeyError' } } as unknown as RunView['report'];
  assert.equal(failedPosition({ ...base, status: 'aborted', report }), '__post__/0');
  assert.equal(failedPosition({ ...base, status: 'failed', error: { code: 'model_http_error', message: 'HTTP 503', position: 'draft/r1/model' } }), 'draft/r1/model');
  assert.equal(failedPosition({ ...base, status: 'failed', error: { code: 'x', message: 'no position' } }), null);
  assert.equal(failedPosition({ ...base, status: 'completed', report }), null);
  // a fork of a failed processor step starts from what it was given; of a failed model turn, from the turn
  assert.equal(failedForkPosition({ ...base, status: 'aborted', report }), '__post__/0/input');
  assert.equal(failedForkPosition({ ...base, status: 'failed', error: { code: 'model_http_error', message: 'HTTP 503', position: 'draft/r1/model' } }), 'draft/r1/model');
});

test("a failed run with no failed step or position is offered the server's rerun point; a run aborted on request none", () => {
  const error = { code: 'output_invalid', message: "phase draft: the finish artifact does not satisfy the output schema after one retry", phase: 'draft', round: 2 };
  assert.equal(failedPosition({ ...base, status: 'failed', error, rerunFrom: 'draft' }), 'draft');
  assert.equal(failedForkPosition({ ...base, status: 'failed', error, rerunFrom: 'draft#2' }), 'draft#2');
  assert.equal(failedPosition({ ...base, status: 'aborted', error: { code: 'aborted', message: 'asked' }, rerunFrom: null }), null);
});

test('fork points a run page offers: input, its phases, the finish artifact, each processor step and its input', () => {
  const run: Run = { ...base, steps: [step('__post__/0'), step('__post__/1')], traces: [{ phase: 'draft' } as RunView['traces'][number]] };
  assert.deepEqual(forkPositions(run), ['input', 'draft', '__post__', '__post__/0', '__post__/0/input', '__post__/1', '__post__/1/input']);
  assert.deepEqual(forkPositions({ ...base, status: 'aborted' }), ['input'], 'no finish artifact to fork from when the run stopped before it');
});

test('what the value at a point is, and whether it must be an object', () => {
  assert.deepEqual(pointFacts('__post__', 'input'), { what: 'the finish artifact', effect: 'The postprocessor runs on this artifact; nothing before it runs again.', isObject: true });
  assert.equal(pointFacts('draft/r2/model', 'model').what, 'the model turn at draft/r2/model');
  assert.equal(pointFacts('draft/r1/post-tool/0', 'tool').isObject, false, 'a tool outcome is any JSON');
  assert.equal(pointFacts('draft/r1/pre-tool/0', 'tool').isObject, true, "a tool call's arguments are an object");
  assert.match(pointFacts('__post__/1/input', 'processor').what, /what step __post__\/1 is given/);
  assert.equal(pointFacts('__post__/1', 'processor').isObject, false, 'a validate step may yield null; the server says');
});
