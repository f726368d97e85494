// relativeErrorValue rewrites a recorded value (a run's error, a divergence's two sides as "Check against past
// runs" shows them): every key it had is still there after, `__proto__` (an own key JSON.parse makes) included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { relativeErrorValue } from './error-info';

test('a __proto__ key of a recorded value is kept, and what is under it made relative like the rest', () => {
  const value = JSON.parse('{"message":"raised in /b/v/total.py","__proto__":{"where":"/b/v/total.py:3"},"deep":{"__proto__":{"x":1}}}');
  const out = relativeErrorValue(value, ['/b/v']);
  assert.equal(JSON.stringify(out), '{"message":"raised in total.py","__proto__":{"where":"total.py:3"},"deep":{"__proto__":{"x":1}}}');
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
});
