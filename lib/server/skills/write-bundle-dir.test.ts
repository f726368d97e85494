// `stagecraft pull` into a folder a run's code can write (a workspace the user named): code can plant
// links at the names pull writes — skill.md pointing at a host file, a subfolder pointing at a host
// folder, a link to a file that does not exist yet. Real files, and a real process flipping a
// subfolder between a folder and a link to the host's folder while the bundle is written.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { writeBundleDir } from './write-bundle-dir';

const root = mkdtempSync(path.join(tmpdir(), 'sc-write-bundle-'));
after(() => rmSync(root, { recursive: true, force: true }));

const FILES = { 'skill.md': '---\nname: pulled\n---\nHi.\n', 'lib/step.py': 'def f(x):\n    return x\n', 'notes/new.txt': 'new' };

function hostFolder(name: string): string {
  const outside = path.join(root, name);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'bashrc'), 'HOST FILE');
  return outside;
}

test('links planted at the names pull writes are replaced, never written through', () => {
  const outside = hostFolder('host-a');
  const target = path.join(root, 'pulled-a');
  mkdirSync(target);
  symlinkSync(path.join(outside, 'bashrc'), path.join(target, 'skill.md'));
  symlinkSync(outside, path.join(target, 'lib'));
  mkdirSync(path.join(target, 'notes'));
  symlinkSync(path.join(outside, 'made-by-pull'), path.join(target, 'notes', 'new.txt')); // dangling: a plain write creates it
  writeBundleDir(target, FILES);
  assert.equal(readFileSync(path.join(outside, 'bashrc'), 'utf8'), 'HOST FILE');
  assert.deepEqual(readdirSync(outside).sort(), ['bashrc'], 'pull made or wrote files in the host folder');
  for (const [p, text] of Object.entries(FILES)) {
    assert.equal(lstatSync(path.join(target, p)).isFile(), true, `${p} is still a link`);
    assert.equal(readFileSync(path.join(target, p), 'utf8'), text);
  }
  assert.equal(lstatSync(path.join(target, 'lib')).isDirectory(), true);
  assert.deepEqual(readdirSync(path.join(target, 'notes')), ['new.txt'], 'a temporary file was left behind');
});

test('a file pulled over keeps its mode; a folder or a file in the way is a clear error', () => {
  const target = path.join(root, 'pulled-b');
  mkdirSync(path.join(target, 'lib'), { recursive: true });
  writeFileSync(path.join(target, 'lib', 'step.py'), 'old', { mode: 0o755 });
  writeBundleDir(target, { 'lib/step.py': 'new' });
  assert.equal(statSync(path.join(target, 'lib', 'step.py')).mode & 0o777, 0o755);
  writeFileSync(path.join(target, 'notes'), 'a file');
  assert.throws(() => writeBundleDir(target, { 'notes/new.txt': 'x' }), /notes\/new\.txt cannot be written in .*notes is a file there/);
  mkdirSync(path.join(target, 'skill.md'));
  assert.throws(() => writeBundleDir(target, { 'skill.md': 'x' }), /skill\.md in .* cannot be written: it is a folder there/);
});

const FLIPPER = `
import os, sys, time
t, out = sys.argv[1], sys.argv[2]
end = time.time() + 60
n = 0
print("ready", flush=True)
while time.time() < end:
    try:
        os.rename(t + "/lib", t + "/old%d" % n)
        n += 1
    except OSError:
        pass
    try:
        os.symlink(out, t + "/lib")
        time.sleep(0.0002)
        os.unlink(t + "/lib")
    except OSError:
        pass
    time.sleep(0.0002)
`;

test('a subfolder flipped between a folder and a link to the host’s folder while pulled into: 500 pulls, nothing lands in the host’s folder', async () => {
  const outside = hostFolder('host-c');
  const target = path.join(root, 'pulled-c');
  mkdirSync(target);
  const child = spawn('python3', ['-c', FLIPPER, target, outside], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    let written = 0;
    for (let i = 0; i < 500; i++) {
      try {
        writeBundleDir(target, { 'lib/step.py': `pull ${i}` });
        written++;
      } catch {
        // refused: a link was swapped in, or the folder went between two steps
      }
    }
    assert.deepEqual(readdirSync(outside).sort(), ['bashrc'], 'pull wrote in the host folder');
    assert.equal(readFileSync(path.join(outside, 'bashrc'), 'utf8'), 'HOST FILE');
    assert.ok(written > 20, `only ${written} pulls ended without an error`);
  } finally {
    child.kill();
  }
});
