// Long arrays in two steps' outputs (a replay's, a fork's, a failed run against the last completed
// one): their structural diff must come in time linear in their length, and still patch A into B.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { patch } from 'jsondiffpatch';
import { diffValues } from './compare';
import type { Json } from './json';

const timed = (a: Json, b: Json) => {
  const started = performance.now();
  const delta = diffValues(a, b);
  return { delta, ms: performance.now() - started };
};

test('two long arrays that differ are diffed in linear time, position by position, into a delta that patches A into B', () => {
  // aligned by jsondiffpatch (the product of their lengths, in time and memory), 20,000 numbers a side took 19 s and 2 GB
  const a = Array.from({ length: 20_000 }, (_, i) => i * 2);
  const b = a.map((x) => x + 1);
  b.push(7);
  const { delta, ms } = timed(a, b);
  assert.ok(ms < 2_000, `took ${Math.round(ms)} ms`);
  assert.deepEqual(patch(structuredClone(a), delta as never), b);
  assert.deepEqual((delta as Record<string, Json>)['20000'], [7]);
  assert.deepEqual((delta as Record<string, Json>)['3'], [6, 7]);
});

test('many medium arrays in one value share the bound: the diff of all of them stays quick', () => {
  const a: Record<string, Json> = {};
  const b: Record<string, Json> = {};
  for (let k = 0; k < 40; k++) {
    a[`k${k}`] = Array.from({ length: 1_500 }, (_, i) => i * 2);
    b[`k${k}`] = Array.from({ length: 1_500 }, (_, i) => i * 2 + 1);
  }
  const { delta, ms } = timed(a, b);
  assert.ok(ms < 1_000, `took ${Math.round(ms)} ms`);
  assert.deepEqual(patch(structuredClone(a), delta as never), b);
});

test('short arrays keep jsondiffpatch alignment: an element inserted is one addition, and equal arrays no delta', () => {
  assert.deepEqual(diffValues([1, 2, 3], [1, 9, 2, 3]), { _t: 'a', 1: [9] });
  assert.equal(diffValues({ xs: Array.from({ length: 50_000 }, (_, i) => i) }, { xs: Array.from({ length: 50_000 }, (_, i) => i) }), null);
  const long = Array.from({ length: 50_000 }, (_, i) => i);
  assert.deepEqual(diffValues({ xs: long, y: 1 }, { xs: [...long], y: 2 }), { y: [1, 2] });
});
