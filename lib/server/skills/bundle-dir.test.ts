// A bundle folder written while it is read: a run's code can write a folder beside its own bundle when
// the user named their parent folder as the workspace, and then run_skill that folder — the host
// reads it (readBundleDir). Here a real process flips a file between a link inside the bundle and
// one to a file of the host outside it (a key, a .env: text the sandbox cannot see), and a folder
// between a real one and a link to the host's folder, as fast as it can; every read of the bundle
// must give the decoys or a problem, never the host's file.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { listBundleDir, MAX_BUNDLE_ENTRIES, readBundleDir } from './bundle-dir';

const root = mkdtempSync(path.join(tmpdir(), 'sc-bundle-dir-'));
// rm -rf: the tree nested 3,000 deep below defeats Node's recursive rm
after(() => spawnSync('rm', ['-rf', root]));

const FLIPPER = `
import os, sys, time
b = sys.argv[1]
out = sys.argv[3]
os.symlink("ok.txt", b + "/l_ok"); os.symlink(out + "/secret.txt", b + "/l_bad")
os.mkdir(b + "/sub"); open(b + "/sub/secret.txt", "w").write("decoy")
end = time.time() + float(sys.argv[2])
print("ready", flush=True)
while time.time() < end:
    os.symlink("l_bad", b + "/tmp_l"); os.replace(b + "/tmp_l", b + "/leak.txt")
    os.rename(b + "/sub", b + "/d_ok"); os.symlink(out, b + "/sub")
    os.symlink("l_ok", b + "/tmp_l"); os.replace(b + "/tmp_l", b + "/leak.txt")
    os.unlink(b + "/sub"); os.rename(b + "/d_ok", b + "/sub")
`;

test('a bundle flipped between links while it is read: 2000 reads, none holds the host’s file', async () => {
  const b = path.join(root, 'evil');
  mkdirSync(b);
  const outside = path.join(root, 'host-only');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 'SECRET=sk-host-only');
  writeFileSync(path.join(b, 'skill.md'), '---\nname: evil\n---\nHi.\n');
  writeFileSync(path.join(b, 'ok.txt'), 'ok');
  const child = spawn('python3', ['-c', FLIPPER, b, '60', outside], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const leaks: string[] = [];
    let reads = 0;
    for (let i = 0; i < 2000; i++) {
      const got = readBundleDir(b); // an entry gone between the listing and its lstat is skipped, not an error
      reads++;
      for (const [p, text] of Object.entries(got.files)) if (text.includes('sk-host-only')) leaks.push(p);
    }
    assert.deepEqual(leaks, [], 'files of the bundle read held the host’s file');
    assert.ok(reads > 100, `only ${reads} reads ended without an error`);
  } finally {
    child.kill();
  }
});

const CHURNER = `
import os, sys
b = sys.argv[1]
print("ready", flush=True)
while True:
    for i in range(100):
        p = b + "/churn-%03d.txt" % i
        if os.path.exists(p): os.unlink(p)
        else: open(p, "w").write("x")
`;

test('files code deletes while the bundle is read: 500 reads, each ends (a file gone between the listing and its lstat was not there), never a raw ENOENT', async () => {
  const b = path.join(root, 'churned');
  mkdirSync(b);
  writeFileSync(path.join(b, 'skill.md'), '---\nname: churned\n---\nHi.\n');
  const child = spawn('python3', ['-c', CHURNER, b], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    for (let i = 0; i < 500; i++) {
      const got = readBundleDir(b);
      assert.equal(got.files['skill.md'], '---\nname: churned\n---\nHi.\n');
      for (const [p, text] of Object.entries(got.files)) if (p !== 'skill.md') assert.ok(text === 'x' || text === '', p); // read as it was written, or before
    }
  } finally {
    child.kill();
  }
});

// Without /proc (macOS; a Linux without it mounted) no descriptor says its path: the reader is a real node
// process in bubblewrap with an empty /proc, and a link at a bundle name is exchanged with one to the
// host's file (renameat2 RENAME_EXCHANGE: one system call a flip, as fast as code can).
const EXCHANGER = `
import ctypes, os, sys, time
b, out = sys.argv[1], sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
os.symlink("ok.txt", b + "/leak.txt"); os.symlink(out + "/secret.txt", b + "/.swap")
a, c = (b + "/leak.txt").encode(), (b + "/.swap").encode()
end = time.time() + 60
print("ready", flush=True)
while time.time() < end:
    for _ in range(1000):
        libc.renameat2(-100, a, -100, c, 2)
`;

const NO_PROC = ['--dev-bind', '/', '/', '--tmpfs', '/proc'];
const canHideProc = spawnSync('bwrap', [...NO_PROC, process.execPath, '-e', 'process.exit(require("fs").existsSync("/proc/self/fd") ? 1 : 0)']).status === 0;

test('without /proc, a link exchanged with one to the host’s file while the bundle is read: 2000 reads, none holds it', { skip: canHideProc ? false : 'bubblewrap cannot hide /proc here' }, async () => {
  const b = path.join(root, 'evil-no-proc');
  mkdirSync(b);
  const outside = path.join(root, 'host-only-2');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 'SECRET=sk-host-only');
  writeFileSync(path.join(b, 'skill.md'), '---\nname: evil\n---\nHi.\n');
  writeFileSync(path.join(b, 'ok.txt'), 'ok');
  const reader = `
    const { existsSync } = await import('node:fs');
    const { readBundleDir } = await import(${JSON.stringify(path.join(path.dirname(fileURLToPath(import.meta.url)), 'bundle-dir.ts'))});
    let leaks = 0, reads = 0;
    for (let i = 0; i < 2000; i++) {
      try {
        const got = readBundleDir(${JSON.stringify(b)});
        reads++;
        for (const text of Object.values(got.files)) if (text.includes('sk-host-only')) leaks++;
      } catch {}
    }
    console.log(JSON.stringify({ leaks, reads, hasProc: existsSync('/proc/self/fd') }));`;
  const child = spawn('python3', ['-c', EXCHANGER, b, outside], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const run = spawn('bwrap', [...NO_PROC, process.execPath, '--import', 'tsx', '--input-type=module', '-e', reader], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    run.stdout.on('data', (d) => (out += d));
    await new Promise((r) => run.once('exit', r));
    const got = JSON.parse(out) as { leaks: number; reads: number; hasProc: boolean };
    assert.equal(got.hasProc, false);
    assert.equal(got.leaks, 0, `${got.leaks} of ${got.reads} reads held the host’s file`);
    assert.ok(got.reads > 100, `only ${got.reads} reads ended without an error`);
  } finally {
    child.kill();
  }
});

test('a folder filled with 50,000 entries beside the bundle’s files: read no further than the bundle may hold, one problem, not 50,000', () => {
  const b = path.join(root, 'wide');
  mkdirSync(path.join(b, 'many'), { recursive: true });
  mkdirSync(path.join(b, 'node_modules'));
  writeFileSync(path.join(b, 'skill.md'), '---\nname: wide\n---\nHi.\n');
  for (let i = 0; i < 150; i++) writeFileSync(path.join(b, `f${i}.txt`), 'ok');
  for (let i = 0; i < 2000; i++) writeFileSync(path.join(b, 'node_modules', `m${i}.js`), '');
  const legit = readBundleDir(b);
  assert.deepEqual(legit.problems, [], 'a bundle of 151 files, with a node_modules of 2,000, is read whole');
  assert.equal(Object.keys(legit.files).length, 151);
  for (let i = 0; i < 50_000; i++) symlinkSync('nowhere', path.join(b, 'many', `l${i}`));
  const t = performance.now();
  const got = readBundleDir(b);
  const ms = performance.now() - t;
  assert.deepEqual(
    got.problems.map((p) => p.code),
    ['bundle_too_many_files'],
  );
  assert.match(got.problems[0].message, new RegExp(`more than ${MAX_BUNDLE_ENTRIES} entries`));
  assert.ok(ms < 1_000, `reading took ${Math.round(ms)} ms`);
});

test('what else a folder pulled into holds is listed within bounds: a tree nested 3,000 deep and 5,000 files are cut, not walked whole (nor a failure)', () => {
  const b = path.join(root, 'pulled-into');
  mkdirSync(b);
  writeFileSync(path.join(b, 'notes.txt'), 'mine');
  const deep = spawnSync('python3', ['-c', 'import os\nfor _ in range(3000):\n    os.mkdir("d"); os.chdir("d")'], { cwd: b });
  assert.equal(deep.status, 0, String(deep.stderr));
  assert.deepEqual(listBundleDir(b), { paths: ['notes.txt'], isCut: true });
  const wide = path.join(root, 'pulled-into-wide');
  mkdirSync(path.join(wide, 'many'), { recursive: true });
  for (let i = 0; i < 5000; i++) writeFileSync(path.join(wide, 'many', `f${i}`), '');
  const t = performance.now();
  const listed = listBundleDir(wide);
  assert.ok(performance.now() - t < 1_000);
  assert.equal(listed.isCut, true);
  assert.ok(listed.paths.length < MAX_BUNDLE_ENTRIES, `${listed.paths.length} paths listed`);
});

test('a link through a file (not a folder) is said to be unreachable, not missing', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-bundle-notdir-'));
  try {
    writeFileSync(path.join(dir, 'skill.md'), '---\nname: x\n---\n');
    symlinkSync('skill.md/inside', path.join(dir, 'through.txt'));
    const problem = readBundleDir(dir).problems.find((p) => p.path === 'through.txt');
    assert.match(problem?.message ?? '', /^through\.txt is a symlink to skill\.md\/inside \(.*\), which cannot be reached \(ENOTDIR\): remove the link/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
