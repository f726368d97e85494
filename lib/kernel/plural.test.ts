import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counted, partOf, plural } from './plural';

test('a count reads right for 0, 1, 2 and thousands, whatever the noun, its digits ungrouped as scripts match them', () => {
  assert.deepEqual([0, 1, 2, 1000, 1234567].map((n) => plural(n, 'step')), ['0 steps', '1 step', '2 steps', '1000 steps', '1234567 steps']);
  assert.equal(plural(1, 'child', 'children'), '1 child');
  assert.equal(plural(3, 'child', 'children'), '3 children');
  assert.equal(counted(-1500), '-1500');
  assert.equal(counted(999), '999');
  assert.equal(counted(1.5), '1.5');
});

test('a part of a count: all of it says "all" (one of one stays plain), less says the number', () => {
  assert.deepEqual([partOf(5, 7), partOf(7, 7), partOf(1, 1), partOf(0, 3)], ['5', 'all 7', '1', '0']);
});
