// removeWithin: a tree removed whole, by descriptors, without following a link in it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, fchmodSync, fstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { rmdir, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { removeWithin } from './remove-within';
import { asNonRoot, isRoot, NOBODY, skipAsNobody } from './testing/as-nobody';

const root = mkdtempSync(path.join(tmpdir(), 'sc-remove-within-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('a tree with files, folders, a FIFO, links to a host folder and file, and a folder code made unreadable goes; what the links lead to stays', async () => {
  const host = path.join(root, 'host');
  mkdirSync(host);
  writeFileSync(path.join(host, 'key'), 'secret');
  const ws = path.join(root, 'ws');
  mkdirSync(path.join(ws, 'a', 'b'), { recursive: true });
  writeFileSync(path.join(ws, 'a', 'b', 'f'), 'x');
  writeFileSync(path.join(ws, 'top'), 'x');
  assert.equal(spawnSync('mkfifo', [path.join(ws, 'a', 'fifo')]).status, 0);
  symlinkSync(host, path.join(ws, 'a', 'to-host'));
  symlinkSync(path.join(host, 'key'), path.join(ws, 'key'));
  mkdirSync(path.join(ws, 'shut', 'in'), { recursive: true });
  writeFileSync(path.join(ws, 'shut', 'in', 'f'), 'x');
  chmodSync(path.join(ws, 'shut'), 0o000);
  await removeWithin(ws);
  assert.equal(existsSync(ws), false);
  assert.deepEqual(readdirSync(host), ['key']);
});

test('a workspace that is a link is refused, and what it leads to stays', async () => {
  const host = path.join(root, 'host2');
  mkdirSync(host);
  writeFileSync(path.join(host, 'key'), 'secret');
  const link = path.join(root, 'ws-link');
  symlinkSync(host, link);
  await assert.rejects(removeWithin(link), /ENOTDIR|ELOOP/);
  assert.deepEqual(readdirSync(host), ['key']);
});

test('a folder code locked (chmod 000, and one with its write taken) goes for a user that is not root: its write is given back through its descriptor', { skip: skipAsNobody }, () => {
  const ws = mkdtempSync(path.join(tmpdir(), 'sc-remove-locked-'));
  try {
    mkdirSync(path.join(ws, 'shut', 'in'), { recursive: true });
    writeFileSync(path.join(ws, 'shut', 'f'), 'x');
    writeFileSync(path.join(ws, 'shut', 'in', 'f'), 'x');
    mkdirSync(path.join(ws, 'readonly'));
    writeFileSync(path.join(ws, 'readonly', 'f'), 'x');
    if (isRoot) spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, ws]);
    chmodSync(path.join(ws, 'shut', 'in'), 0o000);
    chmodSync(path.join(ws, 'shut'), 0o000);
    chmodSync(path.join(ws, 'readonly'), 0o500);
    const r = asNonRoot([process.execPath, '--import', 'tsx', path.resolve('lib/sandbox/fixtures/remove-within.ts'), ws]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(existsSync(ws), false);
  } finally {
    spawnSync('chmod', ['-R', 'u+rwx', ws]);
    rmSync(ws, { recursive: true, force: true });
  }
});

test('a name its folder refuses to give up (EACCES once) goes after that folder, the one held, is given its owner’s write: a link there is never chmod-ed', async () => {
  const host = path.join(root, 'host3');
  mkdirSync(host);
  chmodSync(host, 0o755);
  const ws = path.join(root, 'ws3');
  mkdirSync(path.join(ws, 'held'), { recursive: true });
  symlinkSync(host, path.join(ws, 'held', 'to-host'));
  chmodSync(path.join(ws, 'held'), 0o500);
  const held = statSync(path.join(ws, 'held')).ino;
  let refused = 0;
  const chmodded: { ino: number; mode: number }[] = [];
  await removeWithin(
    ws,
    {
      unlink: async (p) => {
        if (p.endsWith('/to-host') && refused++ === 0) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        await unlink(p);
      },
      rmdir: (p) => rmdir(p),
    },
    async (fd, mode) => {
      chmodded.push({ ino: fstatSync(fd).ino, mode });
      fchmodSync(fd, mode);
    },
  );
  assert.equal(existsSync(ws), false);
  assert.equal(refused, 2, 'refused once, tried once more');
  assert.deepEqual(chmodded, [{ ino: held, mode: 0o700 }], 'the folder held, given its owner’s write');
  assert.equal(statSync(host).mode & 0o7777, 0o755, 'what the link leads to is untouched');
});
