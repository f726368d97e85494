// The host's file ops against a workspace that hostile code has prepared: links planted at the name
// and on the way, a FIFO, a huge sparse file, a `.git`, a folder flipped to a link mid-lookup.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { WorkspaceFiles } from '../kernel/ports';
import { createWorkspaceFiles, FILE_READ_MAX_BYTES } from './workspace-files';

let root: string;
let ws: string;
let bundle: string;
let outside: string;
let files: WorkspaceFiles;

before(() => {
  root = mkdtempSync(path.join(tmpdir(), 'sc-wsfiles-'));
  ws = path.join(root, 'ws');
  bundle = path.join(root, 'bundle');
  outside = path.join(root, 'outside');
  for (const d of [ws, bundle, outside]) mkdirSync(d);
  writeFileSync(path.join(bundle, 'data.txt'), 'from the bundle');
  writeFileSync(path.join(outside, 'secret.txt'), 'outside secret');
  files = createWorkspaceFiles({ root: ws, readFallback: bundle });
});
after(() => rmSync(root, { recursive: true, force: true }));

/** the step failure `p` rejects with: its code and message */
async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    return e as { code: string; message: string };
  }
  assert.fail('expected the op to fail');
}

test('reads and writes files of the workspace, nested folders made on the way; reads the bundle where the workspace has none', async () => {
  assert.deepEqual(await files.write('notes/a/b.txt', 'héllo'), { bytes: 6 });
  assert.equal(readFileSync(path.join(ws, 'notes/a/b.txt'), 'utf8'), 'héllo');
  assert.equal(await files.read('notes/a/b.txt'), 'héllo');
  assert.equal(await files.read('./notes//a/b.txt'), 'héllo');
  assert.equal(await files.read('data.txt'), 'from the bundle');
  await files.write('data.txt', 'the run’s own');
  assert.equal(await files.read('data.txt'), 'the run’s own', 'the workspace first');
  assert.equal(readFileSync(path.join(bundle, 'data.txt'), 'utf8'), 'from the bundle', 'the bundle is never written');
  assert.match((await failure(files.read('nope.txt'))).message, /cannot read nope\.txt: no such file/);
});

test('a dangling link planted at the name is replaced by the write, never written through', async () => {
  const target = path.join(outside, 'new.txt');
  symlinkSync(target, path.join(ws, 'x.txt'));
  await files.write('x.txt', 'kept inside');
  assert.equal(existsSync(target), false, 'the write created a file outside the workspace');
  assert.ok(lstatSync(path.join(ws, 'x.txt')).isFile(), 'the link was replaced by the file');
  assert.equal(readFileSync(path.join(ws, 'x.txt'), 'utf8'), 'kept inside');
});

test('a link at the name or on the way is refused for reads, and never followed by writes', async () => {
  symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'leak.txt'));
  symlinkSync(outside, path.join(ws, 'out'));
  symlinkSync('/etc', path.join(ws, 'etc'));
  const read = await failure(files.read('leak.txt'));
  assert.equal(read.code, 'op_bad_path');
  assert.match(read.message, /leak\.txt is a symbolic link; file ops never follow links/);
  assert.match((await failure(files.read('out/secret.txt'))).message, /out is a symbolic link/);
  assert.match((await failure(files.read('etc/passwd'))).message, /etc is a symbolic link/);
  assert.match((await failure(files.write('out/planted.txt', 'x'))).message, /out is a symbolic link/);
  assert.equal(existsSync(path.join(outside, 'planted.txt')), false);
});

test('relative paths only: no absolute path, no `..`, no NUL', async () => {
  for (const [p, why] of [
    ['/etc/passwd', /must be relative/],
    ['../outside/secret.txt', /leaves the run root/],
    ['a/../../x', /leaves the run root/],
    ['a\0b', /NUL/],
    ['.', /names the run root itself/],
  ] as const) {
    const e = await failure(files.read(p));
    assert.equal(e.code, 'op_bad_path', p);
    assert.match(e.message, why);
  }
});

test('a path of 20,000 parts is refused before a folder is made (each would be made and opened on the main thread); 128 parts are written', async () => {
  const deep = mkdtempSync(path.join(root, 'deep-'));
  const ops = createWorkspaceFiles({ root: deep, quota: { maxBytes: 1024 ** 3, maxFiles: 10_000 } });
  const t = performance.now();
  const e = await failure(ops.write('a/'.repeat(20_000) + 'x.txt', 'deep'));
  const ms = performance.now() - t;
  assert.equal(e.code, 'op_bad_path');
  assert.match(e.message, /more than 128 parts/);
  assert.equal(existsSync(path.join(deep, 'a')), false, 'folders were made');
  assert.ok(ms < 500, `took ${ms.toFixed(0)} ms`);
  assert.match((await failure(ops.read('b/'.repeat(40_000)))).message, /characters long/);
  const ok = 'a/'.repeat(127) + 'x.txt';
  await ops.write(ok, 'deep');
  assert.equal(await ops.read(ok), 'deep');
});

test('a .git folder is refused to reads and writes, in any letter case and at any depth', async () => {
  mkdirSync(path.join(ws, '.git/hooks'), { recursive: true });
  writeFileSync(path.join(ws, '.git/config'), '[core]\n');
  for (const p of ['.git/config', '.git/hooks/pre-commit', 'sub/.GIT/config', '.Git']) {
    const w = await failure(files.write(p, '#!/bin/sh\necho owned\n'));
    assert.equal(w.code, 'op_bad_path', p);
    assert.match(w.message, /inside a \.git folder, which file ops never touch/);
    assert.equal((await failure(files.read(p))).code, 'op_bad_path');
  }
  assert.equal(existsSync(path.join(ws, '.git/hooks/pre-commit')), false);
  assert.equal(existsSync(path.join(ws, 'sub')), false, 'nothing was made on the way');
});

test('a FIFO is refused at once — four reads of one at the same time leave the thread pool free', async () => {
  const fifo = path.join(ws, 'pipe');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  // libuv has 4 threads here: four reads that blocked in open() would starve the read after them for ever
  const reads = Array.from({ length: 4 }, () => failure(files.read('pipe')));
  const errors = await Promise.all(reads);
  for (const e of errors) {
    assert.equal(e.code, 'op_bad_path');
    assert.match(e.message, /pipe is a FIFO \(named pipe\), not a regular file/);
  }
  assert.equal(await readFile(path.join(bundle, 'data.txt'), 'utf8'), 'from the bundle', 'the thread pool still serves');
  await files.write('pipe', 'x'); // the name is replaced by a file: nothing opens the FIFO
  assert.ok(lstatSync(fifo).isFile());
});

test('the size is checked on the descriptor before reading: a 1.9 GB sparse file is refused without being read', async () => {
  const big = path.join(ws, 'sparse.bin');
  writeFileSync(big, '');
  truncateSync(big, 1_900_000_000);
  const before = process.memoryUsage().arrayBuffers;
  const e = await failure(files.read('sparse.bin'));
  assert.equal(e.code, 'op_too_large');
  assert.match(e.message, /sparse\.bin is 1900000000 bytes, over the limit of 1000000 bytes; nothing was read/);
  assert.ok(process.memoryUsage().arrayBuffers - before < 10 * FILE_READ_MAX_BYTES, 'the file was not read into memory');
  writeFileSync(path.join(ws, 'edge.txt'), 'y'.repeat(FILE_READ_MAX_BYTES));
  assert.equal((await files.read('edge.txt')).length, FILE_READ_MAX_BYTES, 'exactly the limit is fine');
});

test('a folder, a socket-like entry or a folder at the written name are refused with what they are', async () => {
  mkdirSync(path.join(ws, 'adir'));
  assert.match((await failure(files.read('adir'))).message, /adir is a folder, not a regular file/);
  assert.match((await failure(files.write('adir', 'x'))).message, /adir is a folder, not a regular file/);
  writeFileSync(path.join(ws, 'plain.txt'), 'p');
  assert.match((await failure(files.read('plain.txt/below'))).message, /plain\.txt is not a folder/);
});

test('file/write counts against the workspace quota: past it, the write fails and nothing is written', async () => {
  const small = path.join(root, 'small');
  mkdirSync(small);
  const limited = createWorkspaceFiles({ root: small, quota: { maxBytes: 64 * 1024, maxFiles: 5 } });
  for (let i = 0; i < 5; i++) await limited.write(`f${i}.txt`, 'x');
  await limited.write('f0.txt', 'rewritten'); // the same file again: still five
  const e = await failure(limited.write('f5.txt', 'x'));
  assert.equal(e.code, 'workspace_quota_exceeded');
  assert.match(e.message, /file\/write f5\.txt \(1 bytes\): the run's workspace is past its quota, holding more than 5 files and folders/);
  assert.equal(existsSync(path.join(small, 'f5.txt')), false);
  const big = await failure(limited.write('big.txt', 'y'.repeat(100 * 1024)));
  assert.match(big.message, /more than 65536 bytes on disk/);
});

describe('a folder flipped between a real folder and a link to /proc/self while the host reads through it', () => {
  let flipper: ReturnType<typeof spawn>;
  let dir: string;
  before(() => {
    dir = path.join(root, 'race');
    mkdirSync(dir);
    // the real folder has a decoy `environ`; the link makes `d/environ` the reader's own environment
    flipper = spawn(
      'python3',
      [
        '-c',
        `import os
os.chdir(${JSON.stringify(dir)})
os.mkdir("real"); open("real/environ", "w").write("decoy")
while True:
    try:
        os.rename("real", "d")
        os.symlink("/proc/self", "link"); os.rename("d", "real"); os.rename("link", "d")
        os.unlink("d")
    except OSError:
        pass
`,
      ],
      { stdio: 'ignore' },
    );
  });
  before(async () => {
    for (let i = 0; i < 500 && !existsSync(path.join(dir, 'real', 'environ')) && !existsSync(path.join(dir, 'd', 'environ')); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
  });
  after(() => flipper.kill('SIGKILL'));

  test('600 reads: every one gives the decoy or a refusal, none the host’s environment', async () => {
    const racy = createWorkspaceFiles({ root: dir });
    const seen = { decoy: 0, refused: 0, missing: 0, leaked: 0 };
    // at least 600 reads, and on until the race has been met both ways (a loaded machine may
    // schedule the flipper rarely): every read must still give the decoy or a refusal
    for (let i = 0; i < 600 || (i < 20_000 && !(seen.decoy > 0 && seen.refused > 0)); i++) {
      try {
        const text = await racy.read('d/environ');
        if (text === 'decoy') seen.decoy++;
        else seen.leaked++;
      } catch (e) {
        if (/symbolic link/.test((e as Error).message)) seen.refused++;
        else seen.missing++;
      }
    }
    assert.equal(seen.leaked, 0, `leaked ${seen.leaked} times: ${JSON.stringify(seen)}`);
    assert.ok(seen.decoy > 0 && seen.refused > 0, `the race ran both ways: ${JSON.stringify(seen)}`);
  });

  test('the same race leaks through a plain path-based read (so the test above can fail)', async () => {
    let leaked = 0;
    // on until it leaks once (up to 20,000 reads, as above: a loaded machine may schedule the flipper rarely)
    for (let i = 0; i < 20_000 && !leaked; i++) {
      const text = await readFile(path.join(dir, 'd/environ'), 'utf8').catch(() => '');
      if (text && text !== 'decoy') leaked++;
    }
    assert.ok(leaked > 0, 'a naive read never followed the link: the race is not exercised here');
  });
});
