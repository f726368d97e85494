import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attentionOf } from './run-words';

test("a row needing attention says why in the report's word; one that does not says nothing", () => {
  assert.equal(attentionOf({ needsAttention: true, status: 'failed', outcome: 'failed' }), 'failed');
  assert.equal(attentionOf({ needsAttention: true, status: 'aborted', outcome: 'blocked' }), 'aborted');
  assert.equal(attentionOf({ needsAttention: true, status: 'completed', outcome: 'blocked' }), 'blocked');
  // a user's abort, a success, a run still going
  assert.equal(attentionOf({ needsAttention: false, status: 'aborted', outcome: 'blocked' }), null);
  assert.equal(attentionOf({ needsAttention: false, status: 'completed', outcome: 'succeeded' }), null);
  assert.equal(attentionOf({ needsAttention: false, status: 'running', outcome: null }), null);
});
