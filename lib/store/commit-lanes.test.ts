// How many queued operations one statement takes: MAX_BATCH at most, and no more characters than
// MAX_BATCH_CHARS unless one operation alone is larger (it then goes alone) — so runs committing
// large outputs at the same moment never add up to a parameter no string or jsonb can hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../kernel/errors';
import { batchLength, CommitLanes, commitLanesFromEnv, MAX_BATCH, MAX_BATCH_CHARS } from './commit-lanes';

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

// STAGECRAFT_COMMIT_LANES was `Number(v) || 1`: `abc` and `0` silently meant one lane, `-2` and `1.5` a count no one asked for
test('STAGECRAFT_COMMIT_LANES: unset is one lane, a whole number is that many, anything else is refused naming it', () => {
  assert.equal(commitLanesFromEnv({}), 1);
  assert.equal(commitLanesFromEnv({ STAGECRAFT_COMMIT_LANES: '' }), 1);
  assert.equal(commitLanesFromEnv({ STAGECRAFT_COMMIT_LANES: '3' }), 3);
  for (const v of ['abc', '0', '-2', '1.5']) {
    assert.throws(
      () => commitLanesFromEnv({ STAGECRAFT_COMMIT_LANES: v }),
      (e: unknown) => e instanceof UsageError && e.message.startsWith(`STAGECRAFT_COMMIT_LANES="${v}": `) && /whole number of at least 1/.test(e.message),
      v,
    );
  }
});

test('a store is not opened on a bad STAGECRAFT_COMMIT_LANES: the lanes refuse it before any connection', () => {
  const saved = process.env.STAGECRAFT_COMMIT_LANES;
  process.env.STAGECRAFT_COMMIT_LANES = 'abc';
  try {
    assert.throws(() => new CommitLanes('postgresql://127.0.0.1:1/none'), UsageError);
  } finally {
    if (saved === undefined) delete process.env.STAGECRAFT_COMMIT_LANES;
    else process.env.STAGECRAFT_COMMIT_LANES = saved;
  }
});
