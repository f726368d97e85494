import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attentionOf, failureWords } from './run-words';

test("a row needing attention says why in the report's word; one that does not says nothing", () => {
  assert.equal(attentionOf({ needsAttention: true, status: 'failed', outcome: 'failed' }), 'failed');
  assert.equal(attentionOf({ needsAttention: true, status: 'aborted', outcome: 'blocked' }), 'aborted');
  assert.equal(attentionOf({ needsAttention: true, status: 'completed', outcome: 'blocked' }), 'blocked');
  // a user's abort, a success, a run still going
  assert.equal(attentionOf({ needsAttention: false, status: 'aborted', outcome: 'blocked' }), null);
  assert.equal(attentionOf({ needsAttention: false, status: 'completed', outcome: 'succeeded' }), null);
  assert.equal(attentionOf({ needsAttention: false, status: 'running', outcome: null }), null);
});

test("a failed run's words are its error's own, as the run report shows them: the first line, without the kernel's where", () => {
  const step =
    "postprocessor step 0 (python, skill.md line 27) failed: python function total in total.py raised KeyError: 'count' (at total.py:3)\nTraceback (most recent call last):\n  File \"total.py\", line 3";
  assert.equal(failureWords({ errorMessage: step }), "python function total in total.py raised KeyError: 'count' (at total.py:3)");
  assert.equal(failureWords({ errorMessage: 'phase draft preprocessor step 2 (js, skill.md line 9) failed: boom' }), 'boom');
  // a run that failed outside any step: its error's first line as it is
  assert.equal(failureWords({ errorMessage: 'the model could not finish: no scripted turn left\nmore' }), 'the model could not finish: no scripted turn left');
  assert.equal(failureWords({ errorMessage: null }), null);
  assert.equal(failureWords({ errorMessage: '' }), null);
});

test("a run failed by a step nested in iterates: the row says the inner step's own error, not the iterates' wrappers around it", () => {
  const nested =
    'postprocessor step 0 (iterate, skill.md line 18) failed: postprocessor step 0 (iterate, skill.md line 22) failed: postprocessor step 0 (validate, skill.md line 26) failed: validate: /n must be >= 1';
  assert.equal(failureWords({ errorMessage: nested }), 'validate: /n must be >= 1');
  const pre = 'phase draft preprocessor step 1 (iterate, skill.md line 9) failed: phase draft preprocessor step 0 (python, skill.md line 11) failed: boom';
  assert.equal(failureWords({ errorMessage: pre }), 'boom');
});
