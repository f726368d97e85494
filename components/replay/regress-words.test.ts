import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nothingToCheck } from './regress-words';

test('a check over no past runs says there was nothing to check and what to do', () => {
  const words = nothingToCheck({ skill: 'greeter', checked: 0, skipped: [] });
  assert.ok(words, 'it says something');
  assert.match(words, /No past run of greeter/);
  assert.match(words, /run it, then check again/);
  assert.doesNotMatch(words, /none would change/);
});

test('a check that checked or skipped runs keeps its counts', () => {
  assert.equal(nothingToCheck({ skill: 'greeter', checked: 2, skipped: [] }), null);
  assert.equal(nothingToCheck({ skill: 'greeter', checked: 0, skipped: [{ runId: 'run_1', reason: 'no finish artifact' }] }), null);
});
