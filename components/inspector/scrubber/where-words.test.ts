// The scrubber's Visit fact names the visit's number under the phase, not the phase's name again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { visitWords } from './where-words';

test("the Visit fact is the visit's number, never the phase's name said again", () => {
  assert.equal(visitWords({ phase: 'draft', visit: 'draft' }), '1');
  assert.equal(visitWords({ phase: 'work', visit: 'work#100' }), '100');
  assert.equal(visitWords({ phase: '__post__', visit: '__post__' }), '—', 'the postprocessor is not a numbered visit');
  assert.equal(visitWords({ phase: null, visit: null }), '—', 'before the first phase');
  // a phase whose name has a '#' of its own is still read from the end of the key
  assert.equal(visitWords({ phase: 'a#b', visit: 'a#b#3' }), '3');
});
