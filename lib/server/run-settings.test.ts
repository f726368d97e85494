// STAGECRAFT_PRICES was not among the settings checked at start: a malformed table (not JSON, a file that is
// not there, a negative price) let `npm start` start the app, and each run page then failed on it. Now the
// app's start checks it like the others, naming it and the form a table takes; a worker, which shows no
// costs, does not — and neither loads the table's parser (zod) unless the setting is set.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appSettingsProblems, runSettingsProblems } from './run-settings';

const FORM = /Write \{"currency": "USD", "models": \{"<model>": \{"input": <per 1M input tokens>, "output": <per 1M output tokens>\}\}\}\.$/;

test('STAGECRAFT_PRICES is checked at the app\'s start: what is wrong with it, and the form expected', async () => {
  assert.deepEqual(await appSettingsProblems({}), []);
  assert.deepEqual(await appSettingsProblems({ STAGECRAFT_PRICES: '  ' }), []);
  assert.deepEqual(await appSettingsProblems({ STAGECRAFT_PRICES: '{"models": {"*": {"input": 1, "output": 2}}}' }), []);

  const [notJson] = await appSettingsProblems({ STAGECRAFT_PRICES: '{"models": ' });
  assert.match(notJson, /^The price table in STAGECRAFT_PRICES is not JSON: /);
  assert.match(notJson, FORM);
  const [negative] = await appSettingsProblems({ STAGECRAFT_PRICES: '{"models": {"m": {"input": -1, "output": 1}}}' });
  assert.match(negative, /^The price table in STAGECRAFT_PRICES is not as expected at models\.m\.input: /);
  assert.match(negative, FORM);
  const [missing] = await appSettingsProblems({ STAGECRAFT_PRICES: 'lots' });
  assert.match(missing, new RegExp(`^STAGECRAFT_PRICES names ${path.resolve('lots')}, which does not exist\\. Set it to a JSON price table or the path of one\\. `));
  assert.match(missing, FORM);

  // a file: named, with the setting that named it
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-prices-'));
  writeFileSync(path.join(dir, 'prices.json'), '{"models": {"m": {"input": 1}}}');
  const [inFile] = await appSettingsProblems({ STAGECRAFT_PRICES: path.join(dir, 'prices.json') });
  assert.match(inFile, new RegExp(`^The price table in ${path.join(dir, 'prices.json')} \\(STAGECRAFT_PRICES\\) is not as expected at models\\.m\\.output: `));
  // a folder was an EISDIR thrown past the check, a crash with a stack
  const [folder] = await appSettingsProblems({ STAGECRAFT_PRICES: dir });
  assert.equal(folder, `STAGECRAFT_PRICES names ${dir}, which cannot be read (EISDIR). Set it to a JSON price table or the path of a readable file holding one.`);

  // with the others, after them
  const both = await appSettingsProblems({ STAGECRAFT_MAX_RUNS: '0', STAGECRAFT_PRICES: 'lots' });
  assert.equal(both.length, 2, both.join('\n'));
  assert.match(both[0], /^STAGECRAFT_MAX_RUNS="0"/);
  assert.match(both[1], /^STAGECRAFT_PRICES names /);
  // a worker shows no costs
  assert.deepEqual(runSettingsProblems({ STAGECRAFT_PRICES: 'lots' }, 'worker'), []);
});
