// The run view's rerun point (`rerunPoint`, RunView.rerunFrom) is the page's only source for where
// `Rerun from here` starts: a run aborted by a step is rerun from that step (before, the view said
// nothing for any aborted run, and the page derived the step itself from the report), one aborted
// on request from nowhere, a failed run from its failed step or the phase it stopped in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT } from '../../kernel/events';
import type { JsonObject } from '../../kernel/json';
import type { RunEvent } from '../../kernel/ports';
import { rerunPoint } from './failed-step';

const ev = (seq: number, type: string, data: JsonObject): RunEvent => ({ runId: 'r', seq, type, at: seq, data });
const started = ev(1, EVENT.phaseStarted, { phase: 'draft', visit: 1 });
const failedStep = ev(2, EVENT.stepCompleted, { kind: 'processor', status: 'failed', position: '__post__/0', phase: '__post__' });

test('a run aborted by a step is rerun from that step', () => {
  const end = ev(3, EVENT.runAborted, { output: null, error: { code: 'workflow_aborted', message: 'step failed', phase: '__post__' }, report: {}, abort: { by: 'step', phase: '__post__', position: '__post__/0', index: 0, type: 'python', onError: 'fail' } });
  assert.equal(rerunPoint('aborted', [started, failedStep, end]), '__post__/0');
});

test('a run aborted on request failed nowhere: no rerun point, whether its end names the cause or only says so', () => {
  const named = ev(2, EVENT.runAborted, { output: null, error: { code: 'workflow_aborted', message: 'aborted on request: asked', phase: 'draft' }, report: {}, abort: { by: 'request', reason: 'asked', requestedBy: 'api' } });
  const old = ev(2, EVENT.runAborted, { output: null, error: { code: 'workflow_aborted', message: 'aborted on request: asked', phase: 'draft' }, report: {} });
  assert.equal(rerunPoint('aborted', [started, named]), null);
  assert.equal(rerunPoint('aborted', [started, old]), null);
});

test('a failed run is rerun from the phase it stopped in when no step failed; a completed or running run from nowhere', () => {
  const failed = ev(2, EVENT.runFailed, { output: null, error: { code: 'output_invalid', message: 'refused', phase: 'draft' }, report: {} });
  assert.equal(rerunPoint('failed', [started, failed]), 'draft');
  assert.equal(rerunPoint('completed', [started, failedStep]), null);
  assert.equal(rerunPoint('running', [started, failedStep]), null);
});

test('a nested step whose failure an enclosing iterate skipped did not stop the run: the model contract that did is where it is rerun from', () => {
  const inner = ev(2, EVENT.stepCompleted, { kind: 'processor', status: 'failed', position: 'draft/pre/0/2/0', phase: 'draft', nested: true, onError: 'fail' });
  const iterate = ev(3, EVENT.stepCompleted, { kind: 'processor', status: 'skipped', position: 'draft/pre/0', phase: 'draft', onError: 'skip' });
  const refused = ev(4, EVENT.runFailed, { output: null, error: { code: 'output_invalid', message: 'the model could not satisfy its contract', phase: 'draft' }, report: {} });
  assert.equal(rerunPoint('failed', [started, inner, iterate, refused]), 'draft');
  // the same nested failure, not taken in by its iterate, is where the run stopped
  const failedIterate = ev(3, EVENT.stepCompleted, { kind: 'processor', status: 'failed', position: 'draft/pre/0', phase: 'draft', onError: 'fail' });
  const aborted = ev(4, EVENT.runAborted, { output: null, error: { code: 'workflow_aborted', message: 'step failed', phase: 'draft' }, report: {} });
  assert.equal(rerunPoint('aborted', [started, inner, failedIterate, aborted]), 'draft/pre/0');
});
