// `stagecraft push DIR --name "Bad Name"` told the user to "pass --name", which they had just done:
// it says what a name is and gives one of that form instead; without --name the words are as they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPush } from './push-skill';

test('a bad --name is told what a skill name is, with one of that form, not to pass --name', () => {
  assert.throws(
    () => readPush('examples/summarize', { as: 'Bad Name' }),
    (e: Error) => {
      assert.equal(
        e.message,
        'Cannot push examples/summarize as "Bad Name": a skill name is a lowercase letter, then lowercase letters, digits or _ (at most 64). Pass --name a name of that form, e.g. --name bad_name.',
      );
      return true;
    },
  );
  assert.throws(() => readPush('examples/summarize', { as: '42' }), /\(at most 64\)\. Pass --name a name of that form\.$/);
  assert.throws(() => readPush('examples/summarize', { as: '-x-' }), /\(at most 64\)\. Pass --name a name of that form, e\.g\. --name x\.$/);
});
