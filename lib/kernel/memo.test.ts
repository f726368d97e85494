import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, hashJson, memoKey, sha256 } from './memo';

// Memo keys are recorded in every step_completed event and compared on resume: if the
// text or the hash of a key changed, every recorded run would miss its memo and redo its
// steps. These values were computed by the implementation runs were recorded with.
const VALUE = { z: 1, a: [3, { y: null, b: 'é\u0000"', u: undefined }, undefined], m: { k: true, j: -0.5, i: 1e21 } };

test('canonicalJson: keys sorted at every depth, undefined members dropped, undefined elements null — pinned', () => {
  assert.equal(canonicalJson(VALUE), '{"a":[3,{"b":"é\\u0000\\"","y":null},null],"m":{"i":1e+21,"j":-0.5,"k":true},"z":1}');
});

test('canonicalJson: the same value built in another key order gives the same text', () => {
  const reordered = { m: { i: 1e21, k: true, j: -0.5 }, z: 1, a: [3, { b: 'é\u0000"', y: null }, null] };
  assert.equal(canonicalJson(reordered), canonicalJson(VALUE));
  assert.equal(canonicalJson({ b: 1, a: 2 }), '{"a":2,"b":1}');
  assert.equal(canonicalJson([]), '[]');
  assert.equal(canonicalJson({}), '{}');
  assert.equal(canonicalJson({ only: undefined }), '{}');
  assert.equal(canonicalJson(undefined), 'null');
});

test('canonicalJson writes scalars and keys as JSON.stringify does: numbers, non-finite numbers, escaped keys', () => {
  for (const v of [0, -0, 1.5, 1e21, 5e-7, NaN, Infinity, -Infinity, '', 'a"b\\c\u0001\ud800', true, false, null]) {
    assert.equal(canonicalJson(v), JSON.stringify(v), String(v));
  }
  assert.equal(canonicalJson(undefined), 'null');
  // a key that needs escaping, met twice (the second time from the remembered quoting)
  const o = { 'k"\u0000': 1, a: { 'k"\u0000': 2 } };
  assert.equal(canonicalJson(o), '{"a":{"k\\"\\u0000":2},"k\\"\\u0000":1}');
});

test('hashJson, memoKey and sha256 are pinned', () => {
  assert.equal(hashJson(VALUE), '31f629a5ba3a80c8d673aa6884addf57');
  assert.equal(memoKey('__post__', '__post__/0', 'd'.repeat(32), { i: 0, last: null }), 'b64e3358e8c6ed093078c6fa12e1a0e8');
  assert.equal(sha256('stagecraft'), 'fc0ae25ae6fa6d99145c1b88ccb9a9d68e5a7f4174bd90e25b7c2fb23662f347');
});
