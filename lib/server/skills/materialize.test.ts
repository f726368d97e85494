// The read-only copy a run executes from: written once per bundle hash, read-only,
// put back as the version has it whenever a run starts from it.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { bundleHash } from '../../store/skills';
import { materializeVersion } from './materialize';

const version = (files: Record<string, string>) => ({ hash: bundleHash(files), files });

test('a version is written once under its hash, read-only, and mended when a run starts from it', () => {
  const root = path.join(mkdtempSync(path.join(tmpdir(), 'sc-mat-')), 'bundles');
  const v = version({ 'skill.md': '---\nname: a\n---\n', 'lib/steps.py': 'def f(v):\n    return v\n' });
  const dir = materializeVersion(root, v);
  assert.equal(dir, path.join(root, v.hash));
  assert.equal(readFileSync(path.join(dir, 'lib', 'steps.py'), 'utf8'), v.files['lib/steps.py']);
  assert.equal(statSync(path.join(dir, 'skill.md')).mode & 0o777, 0o444);
  // changed and removed files come back; what a step wrote beside them stays
  unlinkSync(path.join(dir, 'skill.md'));
  writeFileSync(path.join(dir, 'lib', 'steps.py'), 'tampered', { mode: 0o644 });
  writeFileSync(path.join(dir, 'side.log'), 'written by a step');
  assert.equal(materializeVersion(root, v), dir);
  assert.equal(readFileSync(path.join(dir, 'skill.md'), 'utf8'), v.files['skill.md']);
  assert.equal(readFileSync(path.join(dir, 'lib', 'steps.py'), 'utf8'), v.files['lib/steps.py']);
  assert.ok(existsSync(path.join(dir, 'side.log')));
});

test('a hash that is not one, or a path that leaves the bundle, is refused before anything is written', () => {
  const root = path.join(mkdtempSync(path.join(tmpdir(), 'sc-mat-')), 'bundles');
  assert.throws(() => materializeVersion(root, { hash: '../../etc', files: {} }), /not a bundle hash/);
  assert.throws(() => materializeVersion(root, { hash: 'a'.repeat(64), files: { '../escape.txt': 'x' } }), { code: 'bundle_invalid' });
  assert.ok(!existsSync(path.join(root, '..', 'escape.txt')));
});
