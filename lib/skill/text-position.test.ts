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
  assert.deepEqual(jsonErrorPosition('{"a": tru}'), { line: 1, column: 7 });
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
