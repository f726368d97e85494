// The suite's start order names files that exist: a renamed or removed test file would silently
// leave the list (and its long wait would start last again).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { concurrency, LONGEST_FIRST, longestFirst } from './test-order.mjs';

const root = path.resolve(import.meta.dirname, '..');

test('every file LONGEST_FIRST names is a test file of the suite, named once', () => {
  for (const f of LONGEST_FIRST) assert.ok(existsSync(path.join(root, f)) && /\.test\.ts$/.test(f), `${f} is not a test file here: update scripts/test-order.mjs`);
  assert.equal(new Set(LONGEST_FIRST).size, LONGEST_FIRST.length);
});

test('longestFirst: the listed files first, in their order, then the rest as given; none lost, none added', () => {
  const given = ['a.test.ts', LONGEST_FIRST[2], 'b.test.ts', LONGEST_FIRST[0]];
  assert.deepEqual(longestFirst(given), [LONGEST_FIRST[0], LONGEST_FIRST[2], 'a.test.ts', 'b.test.ts']);
});

test('concurrency: TEST_CONCURRENCY when given, whole and positive, else the fallback', () => {
  const was = process.env.TEST_CONCURRENCY;
  try {
    delete process.env.TEST_CONCURRENCY;
    assert.equal(concurrency(4), 4);
    process.env.TEST_CONCURRENCY = '1';
    assert.equal(concurrency(4), 1);
    process.env.TEST_CONCURRENCY = 'two';
    assert.throws(() => concurrency(4), /TEST_CONCURRENCY=two: give a whole number/);
  } finally {
    if (was === undefined) delete process.env.TEST_CONCURRENCY;
    else process.env.TEST_CONCURRENCY = was;
  }
});
