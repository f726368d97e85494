// The validator reading a step's module from disk (compileSkill, a folder's run) to check its
// `function:` name: a regular file of at most MAX_READ_MODULE_BYTES only — a larger one is not read
// (nothing is said of it), and a pipe is never waited on.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_READ_MODULE_BYTES, validateSkill } from './validate';
import { withLines } from './fixtures/helpers';

const dir = mkdtempSync(path.join(tmpdir(), 'sc-read-module-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const TEXT = withLines('postprocessor:\n  output_schema: post\n  steps:\n    - type: python\n      module: ./rendering.py\n      function: to_htm\n');
const rules = () => validateSkill(TEXT, { file: 'skill.md', bundleDir: dir }).diagnostics.map((d) => d.rule);

test('a module on disk that never names the function: function_not_found', () => {
  writeFileSync(path.join(dir, 'rendering.py'), 'def to_html(value):\n    return value\n');
  assert.ok(rules().includes('function_not_found'));
});

test('a module larger than the bound is not read: nothing is said of its function', () => {
  writeFileSync(path.join(dir, 'rendering.py'), `# ${'x'.repeat(MAX_READ_MODULE_BYTES)}\ndef to_html(value):\n    return value\n`);
  assert.ok(!rules().includes('function_not_found'));
});

test('a pipe in place of the module is not read (no wait): it is no file', () => {
  rmSync(path.join(dir, 'rendering.py'));
  execFileSync('mkfifo', [path.join(dir, 'rendering.py')]);
  const found = rules();
  assert.ok(!found.includes('function_not_found'), found.join(','));
});
