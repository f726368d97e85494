import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkJsonText } from '@/components/studio/input-errors';
import { pointFacts, startText } from './fork-words';

test('the fork editor opens a model turn the run never got (its call failed) on an empty turn, not on null and an error', () => {
  const at = 'summarize/r3/model';
  const facts = pointFacts(at, 'model');
  const text = startText({ kind: 'model', value: null });
  assert.deepEqual(JSON.parse(text), { text: '', toolCalls: [], finish: null });
  assert.deepEqual(checkJsonText(text, { what: facts.what, object: facts.isObject, schema: null, schemaNote: 'its schema' }).problems, []);
  // a recorded turn, and any other point, open on their value as it is
  assert.equal(startText({ kind: 'model', value: { text: 'hi', toolCalls: [], finish: { n: 1 } } }), JSON.stringify({ text: 'hi', toolCalls: [], finish: { n: 1 } }, null, 2));
  assert.equal(startText({ kind: 'processor', value: null }), 'null');
});
