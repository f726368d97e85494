// The words beside a compared run's step count when steps of its log were not compared (inside one
// the other run answered whole): the CLI's `compare` and the compare page's run cards say them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { insideAnsweredNote } from './replay';

test('a run with nested steps the other answered whole says how many were not compared, and why', () => {
  assert.equal(insideAnsweredNote({ insideAnswered: 4 }, 'B'), '+4 nested steps not compared: B answered them whole from a recording');
  assert.equal(insideAnsweredNote({ insideAnswered: 1 }, 'A'), '+1 nested step not compared: A answered it whole from a recording');
  assert.equal(insideAnsweredNote({ insideAnswered: 0 }, 'B'), null);
});
