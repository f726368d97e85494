// How many queued operations one statement takes: MAX_BATCH at most, and no more characters than
// MAX_BATCH_CHARS unless one operation alone is larger (it then goes alone) — so runs committing
// large outputs at the same moment never add up to a parameter no string or jsonb can hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { batchLength, MAX_BATCH, MAX_BATCH_CHARS } from './commit-lanes';

const ops = (...sizes: number[]) => sizes.map((n) => ({ op: 'x'.repeat(n) }));

test('small operations batch up to MAX_BATCH', () => {
  assert.equal(batchLength(ops(...Array(MAX_BATCH + 10).fill(100))), MAX_BATCH);
  assert.equal(batchLength(ops(10, 10, 10)), 3);
  assert.equal(batchLength([]), 0);
});

test('large operations batch up to MAX_BATCH_CHARS; one past it goes alone', () => {
  const tenth = Math.floor(MAX_BATCH_CHARS / 10);
  assert.equal(batchLength(ops(...Array(30).fill(tenth))), 9);
  assert.equal(batchLength(ops(MAX_BATCH_CHARS + 5, 10, 10)), 1);
  assert.equal(batchLength(ops(10, MAX_BATCH_CHARS)), 1);
});
