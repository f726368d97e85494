// holdFolder: a folder held open stays the folder names are looked up in, whatever running code does to its path.
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { holdFolder } from './open-inside';
import { replaceFile } from './replace-file';

const root = mkdtempSync(path.join(tmpdir(), 'sc-open-inside-'));
after(() => rmSync(root, { recursive: true, force: true }));

function hostFolder(name: string): string {
  const outside = path.join(root, name);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'bashrc'), 'HOST FILE');
  return outside;
}

test('a held folder moved away and replaced by a link to a host folder: a file made and renamed through it lands in the folder held', () => {
  const outside = hostFolder('host-a');
  const folder = path.join(root, 'a');
  mkdirSync(folder);
  const held = holdFolder(folder);
  assert.ok(held, 'a real folder is held');
  try {
    assert.equal(held.byDescriptor, true, 'this machine has /proc');
    const fd = openSync(held.at('.new'), 'wx');
    writeSync(fd, 'pulled');
    closeSync(fd);
    // what code racing the host does between the host's two system calls
    renameSync(folder, path.join(root, 'a-moved'));
    symlinkSync(outside, folder);
    renameSync(held.at('.new'), held.at('step.py'));
  } finally {
    held.close();
  }
  assert.deepEqual(readdirSync(outside), ['bashrc'], 'nothing landed in the host folder');
  assert.deepEqual(readdirSync(path.join(root, 'a-moved')), ['step.py']);
});

test('a link at the folder\'s name, a link at a folder above it, or nothing there: not held', () => {
  const outside = hostFolder('host-b');
  const linked = path.join(root, 'b-link');
  symlinkSync(outside, linked);
  assert.equal(holdFolder(linked), null);
  mkdirSync(path.join(outside, 'sub'));
  assert.equal(holdFolder(path.join(linked, 'sub')), null, 'a link above is caught: the folder opened is not at the path named');
  assert.equal(holdFolder(path.join(root, 'missing')), null);
});

test('replaceFile into a folder whose name is a link: refused in words, the host folder untouched', () => {
  const outside = hostFolder('host-c');
  const target = path.join(root, 'c');
  mkdirSync(target);
  symlinkSync(outside, path.join(target, 'lib'));
  assert.throws(
    () => replaceFile(path.join(target, 'lib'), 'step.py', 'x', { shown: 'lib/step.py in c' }),
    /^UsageError: lib\/step\.py in c was not written: a folder on its path was replaced by a link while it was written\. Write into a folder no running code can change\.$/,
  );
  assert.deepEqual(readdirSync(outside), ['bashrc']);
});
