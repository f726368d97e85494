// A failed run whose failure is its own (no item failed) never reads "0 failures" or "Nothing failed".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failedOnlyEmptyText, failureCountText } from './failure-words';

test('a run that failed outside any item says so; counts read as counts otherwise', () => {
  assert.equal(failureCountText(0, 'run'), 'the run itself failed');
  assert.match(failedOnlyEmptyText(0, 'run'), /the run itself failed/);
  assert.equal(failureCountText(0, null), '0 failures');
  assert.equal(failedOnlyEmptyText(0, null), 'Nothing failed, was refused or denied.');
  assert.equal(failureCountText(1, '__post__/0'), '1 failure');
  assert.equal(failureCountText(1234, 'run'), '1,234 failures');
});

test('a denied tool call is said for what it is, not left to read as a failure of the run', () => {
  assert.equal(failureCountText(1, null, 1), '1 failure (a denied tool call, not a failure of the run)');
  assert.equal(failureCountText(2, null, 2), '2 failures (all denied tool calls, not failures of the run)');
  assert.equal(failureCountText(3, 'draft/r1/tool/0', 1), '3 failures (1 of them a denied tool call)');
  assert.equal(failureCountText(3, null, 2), '3 failures (2 of them denied tool calls)');
  assert.equal(failureCountText(2, null, 0), '2 failures');
  // a run that failed (max_rounds after a denial) or was aborted with only denials among its failures: its own end is said
  assert.equal(failureCountText(1, null, 1, 'failed'), '1 failure (a denied tool call; the run itself failed: the run report says why)');
  assert.equal(failureCountText(2, 'run', 2, 'aborted'), '2 failures (all denied tool calls; the run itself was aborted: the run report says why)');
  assert.equal(failureCountText(1, null, 1, 'completed'), '1 failure (a denied tool call, not a failure of the run)');
  assert.equal(failureCountText(3, null, 1, 'failed'), '3 failures (1 of them a denied tool call)');
});

test('a stage refused for a missing grant is said for what it is, not counted as a failure of the run', () => {
  // a completed, blocked run: 6 stages refused, 1 call denied, nothing failed
  assert.equal(failureCountText(7, 'gather#1/r1/tool/2', 1, 'completed', 6), '7 failures (1 of them a denied tool call), the other 6 refused stages, not failures of the run');
  assert.equal(failureCountText(1, null, 0, 'completed', 1), '1 failure (1 refused stage, not a failure of the run)');
  assert.equal(failureCountText(3, null, 0, 'completed', 3), '3 failures (3 refused stages, not failures of the run)');
  // something failed too: the refused ones are told apart
  assert.equal(failureCountText(8, '__post__/0', 1, 'aborted', 6), '8 failures (1 of them a denied tool call), 6 refused stages');
  assert.equal(failureCountText(2, '__post__/0', 0, 'aborted', 1), '2 failures (1 of them a refused stage)');
  assert.equal(failureCountText(2, null, 0, 'failed', 2), '2 failures (2 refused stages; the run itself failed: the run report says why)');
});
