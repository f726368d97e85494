// The few words each event and step gets (the scrubber's "what this event changed", `stagecraft
// events`, the timeline's cards) name the bundle's files as the report does: the folder of the bundle
// copy a run executed from is cut before the words are clipped, so the clip keeps what matters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventSummary, stepSummary } from './summaries';
import type { ProcessorStepData } from './events';

const ROOT = '/home/u/.stagecraft/bundles/46f10afdcf43bb908f734e6ed82e6df6a1b206cfa1d3bebc81f7c6972a8fbe96';

test('a failed run, an aborted one and a run started: the bundle copy is cut, its files named', () => {
  const failed = eventSummary('run_failed', { error: { code: 'model_script_exhausted', message: `The model script ${ROOT}/model.yaml has no turn for phase summarize round 3` } }, [ROOT]);
  assert.equal(failed, 'the run failed: The model script model.yaml has no turn for phase summarize round 3');
  const aborted = eventSummary('run_aborted', { error: { code: 'workflow_aborted', message: `step 0 failed: python function sanitize in ${ROOT}/sanitize.py raised KeyError\nTraceback` } }, [ROOT]);
  assert.equal(aborted, 'the run was aborted: step 0 failed: python function sanitize in sanitize.py raised KeyError');
  const started = eventSummary('run_started', { skill: 'summarize', model: `scripted:${ROOT}/model.yaml` }, [ROOT]);
  assert.equal(started, 'the run started: skill summarize, model scripted:model.yaml');
  // without roots the words are as recorded
  assert.match(eventSummary('run_failed', { error: { message: `in ${ROOT}/x.py` } }), /bundles\/46f1/);
});

test('a failed step says its error with the file named, not clipped inside the bundle copy’s folder', () => {
  const d = {
    kind: 'processor',
    position: '__post__/0',
    type: 'python',
    status: 'failed',
    output: { error: { code: 'code_failed', message: `python function sanitize in ${ROOT}/sanitize.py raised KeyError: 'x' (at ${ROOT}/sanitize.py:11)` } },
    definition: {},
  } as unknown as ProcessorStepData;
  assert.equal(stepSummary(d, [ROOT]), "failed (on_error: fail, the run stops): python function sanitize in sanitize.py raised KeyError: 'x' (at sanitize.py:11)");
  assert.equal(eventSummary('step_completed', d as never, [ROOT]), "__post__/0 python failed: failed (on_error: fail, the run stops): python function sanitize in sanitize.py raised KeyError: 'x' (at sanitize.py:11)");
});

test("a fork's events say what it came from, where it departed, and which steps the recording answered (the scrubber, `stagecraft events`)", () => {
  const started = eventSummary('run_started', { skill: 'blog', model: 'scripted:model.yaml', kind: 'fork', parentRunId: 'run_a', forkPoint: '__post__/1/input' });
  assert.equal(started, 'the run started: skill blog, model scripted:model.yaml; a fork of run run_a from __post__/1/input');
  assert.equal(eventSummary('run_started', { skill: 'blog', model: 'm', kind: 'replay', parentRunId: 'run_a' }), 'the run started: skill blog, model m; a replay of run run_a');
  // before: the bare type, "fork_point_reached"
  assert.equal(
    eventSummary('fork_point_reached', { position: '__post__/1', target: 'input', from: 'run_a', recorded: { n: 1 }, edited: { n: 2 } }),
    "the fork reached its point, __post__/1/input: the steps before it were answered from run run_a's recording; the edited value goes on in place of the one recorded, and from here on the run is live",
  );
  assert.equal(
    eventSummary('fork_point_reached', { position: '__post__/1', target: 'rerun', from: 'run_a', recorded: null, edited: null }),
    "the fork reached its point, __post__/1: the steps before it were answered from run run_a's recording; the step there runs again, and from here on the run is live",
  );
  const turn = { kind: 'model', position: 'draft/r1/model', output: { text: '', toolCalls: [], finish: { a: 1 } } };
  assert.equal(eventSummary('step_completed', { ...turn, recorded: { runId: 'run_a', seq: 3 } }), 'draft/r1/model: finished with 1 field (reused from the recording)');
  assert.equal(eventSummary('step_completed', { ...turn, recorded: { runId: 'run_a', seq: 3 }, edited: true }), "draft/r1/model: finished with 1 field (the fork's edited value)");
  assert.equal(eventSummary('step_completed', turn), 'draft/r1/model: finished with 1 field');
});
