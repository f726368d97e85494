// A diff cell's value: an error's traceback on its own lines, not one JSON string of `\n` escapes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { valueText } from './value-text';

test('a value with no text of several lines reads as JSON.stringify(value, null, 2)', () => {
  for (const v of [{ a: 1, b: [true, null, 'x'], c: {}, d: [] }, [], {}, 'one line', 3, null, [{ deep: { er: ['x'] } }]]) assert.equal(valueText(v), JSON.stringify(v, null, 2));
});

test("an error's message and traceback are drawn on their lines, under their keys", () => {
  const error = { code: 'code_failed', message: "python function sanitize in sanitize.py raised KeyError: 'x'\nTraceback (most recent call last):\n  File \"sanitize.py\", line 21, in sanitize\nKeyError: 'x'\n" };
  const text = valueText({ error });
  assert.doesNotMatch(text, /\\n/, 'no escaped line breaks');
  assert.equal(
    text,
    [
      '{',
      '  "error": {',
      '    "code": "code_failed",',
      '    "message": |',
      "      python function sanitize in sanitize.py raised KeyError: 'x'",
      '      Traceback (most recent call last):',
      '        File "sanitize.py", line 21, in sanitize',
      "      KeyError: 'x'",
      '  }',
      '}',
    ].join('\n'),
  );
  // a text alone is itself
  assert.equal(valueText(error.message), error.message);
});
