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
