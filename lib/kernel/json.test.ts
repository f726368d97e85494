// merged: the object a spread of two objects makes, key for key and in the same order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { merged } from './json';

test('merged makes what { ...a, ...b } makes: the same keys in the same order, a key of both taking b’s value in a’s place', () => {
  const a = { z: 1, a: 2, m: 3 };
  const b = { a: 20, q: 4 };
  const m = merged(a, b);
  assert.deepEqual(Object.entries(m), Object.entries({ ...a, ...b }));
  assert.deepEqual(Object.keys(m), ['z', 'a', 'm', 'q']);
  // a new object: neither source changes
  assert.deepEqual(a, { z: 1, a: 2, m: 3 });
  assert.notEqual(m, a);
});

test('an own __proto__ key (as JSON.parse makes) stays an own key and never becomes the prototype', () => {
  const out = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}');
  const m = merged({ a: 1 }, out) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(m), Object.prototype);
  assert.equal((m as { polluted?: unknown }).polluted, undefined);
  assert.deepEqual(Object.keys(m), ['a', '__proto__', 'x']);
  assert.deepEqual(Object.getOwnPropertyDescriptor(m, '__proto__')?.value, { polluted: true });
  const m2 = merged(out, { b: 2 }) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(m2), Object.prototype);
  assert.deepEqual(Object.keys(m2), ['__proto__', 'x', 'b']);
});
