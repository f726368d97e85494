// removeWithin: a tree removed whole, by descriptors, without following a link in it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { removeWithin } from './remove-within';

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
