import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFirstVisit } from './first-steps';

test('the home page greets a newcomer while no skill has run, and only then', () => {
  assert.equal(isFirstVisit([{ lastRun: null }, { lastRun: null }]), true);
  assert.equal(isFirstVisit([{ lastRun: null }, { lastRun: { id: 'run_1' } }]), false);
  assert.equal(isFirstVisit([]), false, 'no skills: the empty page says how to make one');
});
