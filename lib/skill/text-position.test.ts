import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonErrorPosition, jsonSyntaxErrorOffset, lineColumnAt } from './text-position';

test('an offset becomes its 1-based line and column', () => {
  const text = 'ab\ncd\n\nef';
  assert.deepEqual(lineColumnAt(text, 0), { line: 1, column: 1 });
  assert.deepEqual(lineColumnAt(text, 2), { line: 1, column: 3 });
  assert.deepEqual(lineColumnAt(text, 3), { line: 2, column: 1 });
  assert.deepEqual(lineColumnAt(text, 6), { line: 3, column: 1 });
  assert.deepEqual(lineColumnAt(text, 8), { line: 4, column: 2 });
});

test('a JSON syntax error is located where the text stops being JSON', () => {
  assert.deepEqual(jsonErrorPosition('{\n  "a": 1,\n  "b": ]\n}'), { line: 3, column: 8 });
  assert.deepEqual(jsonErrorPosition('{"a": 1,}'), { line: 1, column: 9 });
  assert.deepEqual(jsonErrorPosition('{"a" 1}'), { line: 1, column: 6 });
  assert.deepEqual(jsonErrorPosition('[1, 2'), { line: 1, column: 6 });
  assert.deepEqual(jsonErrorPosition('{"a": "x\ny"}'), { line: 1, column: 9 });
  assert.deepEqual(jsonErrorPosition('{"a": tru}'), { line: 1, column: 10 });
  assert.deepEqual(jsonErrorPosition('nulx'), { line: 1, column: 4 });
  assert.deepEqual(jsonErrorPosition('[1.]'), { line: 1, column: 4 });
  assert.deepEqual(jsonErrorPosition('[1e+]'), { line: 1, column: 5 });
  assert.deepEqual(jsonErrorPosition('[-x]'), { line: 1, column: 3 });
  assert.deepEqual(jsonErrorPosition('"\\u12"'), { line: 1, column: 6 });
  assert.deepEqual(jsonErrorPosition('{} {}'), { line: 1, column: 4 });
  assert.deepEqual(jsonErrorPosition('"\\x"'), { line: 1, column: 3 });
  assert.deepEqual(jsonErrorPosition('01'), { line: 1, column: 2 });
  assert.deepEqual(jsonErrorPosition(''), { line: 1, column: 1 });
});

test('the scanner agrees with JSON.parse on what is JSON, at any depth', () => {
  const valid = ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "\\u00e9\\n"], "b": {}} ', '"x"', '0', '[[[]]]', '{"a":{"b":[{}]}}', '[' .repeat(100_000) + ']'.repeat(100_000)];
  const invalid = ['{', '[1,]', '{"a":1,,}', 'nul', '-', '1.', '.5', '{"a"}', '[}', '{]', '"\\u12"', "'a'", '[1 2]', 'NaN'];
  for (const t of valid) assert.equal(jsonSyntaxErrorOffset(t), null, t.slice(0, 40));
  for (const t of invalid) {
    assert.notEqual(jsonSyntaxErrorOffset(t), null, t);
    assert.throws(() => JSON.parse(t), SyntaxError, t);
  }
  for (const t of valid.slice(0, -1)) JSON.parse(t);
});

test('fuzzed: the scanner calls a text JSON exactly when JSON.parse does', async () => {
  const fc = (await import('fast-check')).default;
  const valid = (t: string) => {
    try {
      JSON.parse(t);
      return true;
    } catch {
      return false;
    }
  };
  const token = fc.constantFrom('{', '}', '[', ']', ',', ':', ' ', '\n', '"', '\\', 'u', '0', '1', '9', '-', '+', '.', 'e', 'E', 'a', 'f', 'true', 'false', 'null', 'nul', '"k"', '\t', '\u0001');
  fc.assert(fc.property(fc.array(token, { maxLength: 24 }), (parts) => {
    const t = parts.join('');
    assert.equal(jsonSyntaxErrorOffset(t) === null, valid(t), JSON.stringify(t));
  }), { numRuns: 20_000 });
  fc.assert(fc.property(fc.jsonValue(), (v) => jsonSyntaxErrorOffset(JSON.stringify(v, null, 1)) === null), { numRuns: 2_000 });
});
