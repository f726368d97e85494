// A large value's memo key, made across turns: the same key as memoKey, byte for byte, with turns of
// the event loop while it is hashed; which values count as large is a lookup of a size already known.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalJson, memoKey } from './memo';
import { canonicalPieces, isLargeValue, LARGE_VALUE_CHARS, memoKeyTurning } from './memo-large';
import { turnCounter } from './testing';
import { requireMergeFits, requireValueFits } from './value-size';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, name: `row-${i}`, note: 'a quoted "word", a tab\t and text', ok: i % 2 === 0, skip: undefined }));

test('canonicalPieces: their concatenation is canonicalJson, for any JSON value and for deep, long, unsorted, sparse ones', () => {
  fc.assert(fc.property(fc.jsonValue(), (v) => assert.equal([...canonicalPieces(v)].join(''), canonicalJson(v))), { numRuns: 300 });
  const odd = { z: 1, a: { y: [rows(100), { b: 2, a: [[[[rows(70)]]]] }], x: undefined }, é: 'ü', n: [NaN, Infinity, -0, null] };
  assert.equal([...canonicalPieces(odd)].join(''), canonicalJson(odd));
  assert.equal([...canonicalPieces([1, 'a', { k: odd }])].join(''), canonicalJson([1, 'a', { k: odd }]));
});

test('memoKeyTurning: the key memoKey makes, with turns of the event loop while a large value is hashed', async () => {
  const input = { rows: rows(40_000) }; // about 4 MB of JSON
  const counter = turnCounter();
  const key = await memoKeyTurning('__post__', '__post__/1', 'abc', input);
  counter.stop();
  const turns = counter.turns;
  assert.equal(key, memoKey('__post__', '__post__/1', 'abc', input));
  assert.ok(turns >= 3, `${turns} turns while about 4 MB were hashed`);
  assert.equal(await memoKeyTurning('p', 'p/0', 'd', { a: 'é', b: [1, 2] }), memoKey('p', 'p/0', 'd', { a: 'é', b: [1, 2] }));
});

test('isLargeValue: only a value whose size is known to be over LARGE_VALUE_CHARS; never measured for it', () => {
  const big = { rows: rows(20_000) };
  assert.equal(isLargeValue(big), false); // no size known yet: not walked to find one
  requireValueFits(big, 'it returned'); // a step's output is measured where it is checked
  assert.equal(isLargeValue(big), true);
  const merged = { ...big, n: 1 };
  requireMergeFits(big, 1, merged, 1);
  assert.equal(isLargeValue(merged), true);
  assert.equal(isLargeValue({ a: 1 }), false);
  assert.equal(isLargeValue('x'.repeat(LARGE_VALUE_CHARS + 1)), false); // a string: no size is remembered for one
});
