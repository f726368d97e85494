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
