// The words of a refused export file (checkRunExport): one sentence per thought, no stray stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRunExport } from './import-runs';

test('a file cut short: the question ends its sentence, no full stop after it', () => {
  assert.throws(
    () => checkRunExport('{"format": "stagecraft-run", "events": [', 'bad.json'),
    (e: Error) => {
      assert.match(e.message, /^bad\.json: it is not JSON \(line 1, column \d+\): .* or cut short\? Nothing was imported from it\.$/);
      assert.doesNotMatch(e.message, /\?\./);
      return true;
    },
  );
});

test('a file that is not an export: one full stop between the reason and what was done', () => {
  assert.throws(() => checkRunExport('{"hello": 1}', 'x.json'), /x\.json: it is not a Stagecraft run export .*`stagecraft export RUN`\. Nothing was imported from it\.$/);
});
