import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonTextDepth, MAX_JSON_DEPTH, valueDepth } from './json-depth';

test('depth of a JSON text: brackets in strings and escaped quotes do not count; a huge depth is measured without recursion', () => {
  assert.equal(jsonTextDepth('{"a": [1, {"b": "[[[{{{"}]}'), 3);
  assert.equal(jsonTextDepth('"\\"[["'), 0);
  assert.equal(jsonTextDepth('42'), 0);
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  assert.equal(jsonTextDepth(deep), MAX_JSON_DEPTH + 1, 'stops counting past the limit');
  assert.equal(jsonTextDepth(deep, Infinity), 100_000);
});

test('depth of a value: as its JSON text would nest; a huge depth is measured without recursion', () => {
  assert.equal(valueDepth(42), 0);
  assert.equal(valueDepth(null), 0);
  assert.equal(valueDepth({}), 1);
  assert.equal(valueDepth({ a: [1, { b: '[[[{{{' }], c: [] }), jsonTextDepth(JSON.stringify({ a: [1, { b: '[[[{{{' }], c: [] })));
  let deep: unknown = [];
  for (let i = 1; i < 100_000; i++) deep = i % 2 ? { x: deep } : [deep];
  assert.equal(valueDepth(deep), MAX_JSON_DEPTH + 1, 'stops counting past the limit');
  assert.equal(valueDepth(deep, Infinity), 100_000);
});
