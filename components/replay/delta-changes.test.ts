import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffValues } from '@/lib/kernel/compare';
import type { Json } from '@/lib/kernel/json';
import { deltaChanges, pathLabel } from './delta-changes';

const changes = (a: Json, b: Json) => deltaChanges(diffValues(a, b), a);

test('a changed, an added and a removed key, each at its path with both values', () => {
  assert.deepEqual(changes({ total: 10, counts: [1, 2], gone: true }, { total: 11, counts: [1, 2], extra: 'x' }), [
    { path: 'total', change: 'changed', before: 10, after: 11 },
    { path: 'gone', change: 'removed', before: true },
    { path: 'extra', change: 'added', after: 'x' },
  ]);
});

test('array items: the index each side has them at; nested objects by their path', () => {
  assert.deepEqual(changes({ p: ['a', 'b', 'c'] }, { p: ['a', 'c'] }), [{ path: 'p[1]', change: 'removed', before: 'b' }]);
  assert.deepEqual(changes({ p: ['a'] }, { p: ['a', 'z'] }), [{ path: 'p[1]', change: 'added', after: 'z' }]);
  assert.deepEqual(changes({ p: ['a', 'b mail x@y'] }, { p: ['a', 'b mail [email]'] }), [{ path: 'p[1]', change: 'changed', before: 'b mail x@y', after: 'b mail [email]' }], 'an item replaced in place is one change');
  assert.deepEqual(changes({ p: [{ n: 1 }] }, { p: [{ n: 2 }] }), [{ path: 'p[0].n', change: 'changed', before: 1, after: 2 }]);
  assert.deepEqual(changes({ 'odd key': { a: 1 } }, { 'odd key': { a: 2 } }), [{ path: '["odd key"].a', change: 'changed', before: 1, after: 2 }]);
});

test('a whole value replaced, and no delta at all', () => {
  assert.deepEqual(changes('text', 3), [{ path: '$', change: 'changed', before: 'text', after: 3 }]);
  assert.deepEqual(deltaChanges(null, { a: 1 }), []);
  assert.equal(pathLabel([]), '$');
  assert.equal(pathLabel(['a', 0, 'b-c']), 'a[0]["b-c"]');
});
