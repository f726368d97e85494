import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareHref, compareTargetHref } from './compare-href';

const derived = (runId: string) => ({ runId, kind: 'fork', forkPoint: '__post__', status: 'completed', createdAt: 1 });

test('Compare sets a fork or replay beside its parent, a run beside its newest fork, else beside the last completed run', () => {
  assert.equal(compareTargetHref({ runId: 'f', kind: 'fork', parentRunId: 'p', derivedRuns: [derived('g')] }), compareHref('p', 'f'));
  assert.equal(compareTargetHref({ runId: 'p', kind: 'run', parentRunId: null, derivedRuns: [derived('new'), derived('old')] }), '/runs/compare?a=p&b=new');
  assert.equal(compareTargetHref({ runId: 'c', kind: 'run', parentRunId: 'caller', derivedRuns: [] }), '/runs/compare?b=c', "a run_skill child's parent is its caller, not a run to compare with");
  assert.equal(compareHref('a b', 'c'), '/runs/compare?a=a%20b&b=c');
});
