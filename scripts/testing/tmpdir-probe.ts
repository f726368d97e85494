// Run by scripts/test-tmpdir.test.ts through `node scripts/test.mjs`: makes a temporary folder as the
// tests do (under os.tmpdir()) and says where. Not a test of its own (its name does not end in .test.ts).
import { test } from 'node:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

test('makes a temporary folder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-probe-'));
  writeFileSync(path.join(dir, 'left.txt'), 'a file its test never removes');
  console.log(`PROBE-DIR ${dir}`);
});
