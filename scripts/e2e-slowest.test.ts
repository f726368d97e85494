// The browser stage names the specs its time went to, from Playwright's json report: a spec's tests
// (in describe blocks too, retried ones each time they ran) summed under its file, longest first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slowestLine, specTimes } from './e2e-slowest.mjs';

const result = (ms: number) => ({ duration: ms });
const report = {
  suites: [
    { file: 'a.spec.ts', specs: [{ file: 'a.spec.ts', tests: [{ results: [result(1_000)] }] }] },
    {
      file: 'b.spec.ts',
      specs: [{ file: 'b.spec.ts', tests: [{ results: [result(2_000), result(1_500)] }] }],
      suites: [{ title: 'at 1024 px', specs: [{ tests: [{ results: [result(4_000)] }] }] }],
    },
  ],
};

test('specTimes: each spec file with its tests summed, describe blocks and retries included, longest first', () => {
  assert.deepEqual(specTimes(report), [
    { file: 'b.spec.ts', ms: 7_500 },
    { file: 'a.spec.ts', ms: 1_000 },
  ]);
});

test('slowestLine: the total over every report, then the n longest specs, in seconds', () => {
  const other = { suites: [{ file: 'queue.spec.ts', specs: [{ file: 'queue.spec.ts', tests: [{ results: [result(3_200)] }] }] }] };
  assert.equal(slowestLine([report, other], 2), '3 specs took 12 s in all; the longest: b.spec.ts 8 s, queue.spec.ts 3 s');
});
