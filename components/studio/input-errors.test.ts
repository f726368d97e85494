import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkInputText, checkJsonText } from './input-errors';

const contract = { phase: 'draft', schema: { type: 'object', required: ['topic'], properties: { topic: { type: 'string' }, n: { type: 'integer' } } } };

test('a JSON syntax error in the run input is located where the text stops being JSON', () => {
  const r = checkInputText('{\n  "topic": "x",\n  "n": ]\n}', contract);
  assert.equal(r.value, null);
  assert.equal(r.problems.length, 1);
  assert.deepEqual([r.problems[0].line, r.problems[0].column], [3, 8]);
  assert.match(r.problems[0].message, /^not valid JSON/);
});

test('an input against the entry contract is located at the value its pointer names', () => {
  const r = checkInputText('{\n  "topic": "x",\n  "n": "three"\n}', contract);
  assert.deepEqual(r.problems.map((p) => [p.line, p.column]), [[3, 8]]);
  assert.match(r.problems[0].message, /\/n .*integer.*input contract of phase draft/);
  assert.deepEqual(checkInputText('{"topic": "ok"}', contract).problems, []);
  assert.match(checkInputText('[1]', contract).problems[0].message, /must be a JSON object.*not an array/);
});

test('a value edited at a fork point: any JSON, or an object where one is needed, checked against its schema where it has one', () => {
  assert.deepEqual(checkJsonText('"just text"', { what: 'the tool outcome' }), { value: 'just text', problems: [] });
  const notObject = checkJsonText('3', { what: 'the finish artifact', object: true });
  assert.equal(notObject.value, undefined);
  assert.match(notObject.problems[0].message, /^the finish artifact must be a JSON object, not number/);
  const schema = { type: 'object', required: ['total'], properties: { total: { type: 'integer' } } };
  const wrong = checkJsonText('{\n  "total": 1.5\n}', { what: 'the finish artifact', object: true, schema, schemaNote: 'its schema' });
  assert.deepEqual(wrong.problems.map((p) => [p.line, p.column]), [[2, 12]]);
  assert.match(wrong.problems[0].message, /^\/total .*integer \(its schema\)$/);
  assert.match(checkJsonText('{}', { what: 'the finish artifact', schema }).problems[0].message, /^\(the finish artifact\) .*total/);
});

test("a JSON syntax error says its location once: the parser's own 'at position 13 (line 2 column 3)' is left out of the message shown after line:column", () => {
  const r = checkJsonText('{\n  "a": 1\n  "b": 2}', { what: 'the value' });
  assert.deepEqual([r.problems[0].line, r.problems[0].column], [3, 3]);
  assert.match(r.problems[0].message, /^not valid JSON: Expected ',' or '}' after property value$/);
  assert.doesNotMatch(r.problems[0].message, /position|line \d+|column \d+/);
});
