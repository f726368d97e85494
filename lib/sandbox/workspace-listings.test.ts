// The walk's memory of folder listings: an unchanged folder is not listed again, and nothing a step
// changes is missed (new, removed and grown files, at the top and below, and changes in the racy window).
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ListingMemory, RACY_MS } from './workspace-listings';
import { measureWorkspace } from './workspace-usage';

const root = mkdtempSync(path.join(tmpdir(), 'sc-listings-'));
after(() => rmSync(root, { recursive: true, force: true }));
const QUOTA = { maxBytes: 1024 ** 3, maxFiles: 1000 };
const kept = (m: ListingMemory, dir: string, rel = '') => m.begin(dir)!.names(rel, statSync(path.join(dir, rel), { bigint: true }));

test('a folder unchanged since a walk is not listed again; what changes in it is counted', async () => {
  const ws = path.join(root, 'a');
  mkdirSync(path.join(ws, 'sub'), { recursive: true });
  writeFileSync(path.join(ws, 'f1'), 'x');
  writeFileSync(path.join(ws, 'sub', 'g1'), 'y');
  await sleep(RACY_MS + 20);
  const m = new ListingMemory();
  const first = await measureWorkspace(ws, QUOTA, undefined, m);
  assert.equal(first.files, 3);
  // both folders' names are kept (ctime older than RACY_MS): the next walk lists neither
  assert.deepEqual(kept(m, ws)?.sort(), ['f1', 'sub']);
  assert.deepEqual(kept(m, ws, 'sub'), ['g1']);
  // a file grown in place does not change its folder: still counted (each entry is stat'ed)
  appendFileSync(path.join(ws, 'f1'), Buffer.alloc(64 * 1024));
  const grown = await measureWorkspace(ws, QUOTA, undefined, m);
  assert.equal(grown.files, 3);
  assert.ok(grown.bytes >= first.bytes + 60 * 1024, `${grown.bytes} vs ${first.bytes}`);
  // a file made just after a walk (same clock tick as its stat, maybe) is counted by the next walk, below and at the top
  writeFileSync(path.join(ws, 'sub', 'g2'), 'z');
  writeFileSync(path.join(ws, 'f2'), 'z');
  assert.equal((await measureWorkspace(ws, QUOTA, undefined, m)).files, 5);
  // the folders just changed are within the racy window: listed again, not kept
  assert.equal(kept(m, ws), null);
  unlinkSync(path.join(ws, 'f2'));
  assert.equal((await measureWorkspace(ws, QUOTA, undefined, m)).files, 4);
  await sleep(RACY_MS + 20);
  assert.equal((await measureWorkspace(ws, QUOTA, undefined, m)).files, 4);
  assert.deepEqual(kept(m, ws)?.sort(), ['f1', 'sub']);
  writeFileSync(path.join(ws, 'f3'), 'z');
  assert.equal((await measureWorkspace(ws, QUOTA, undefined, m)).files, 5);
});

test('a folder replaced by another of the same name is listed (its inode differs); one past the quota is not kept', async () => {
  const ws = path.join(root, 'b');
  mkdirSync(path.join(ws, 'sub'), { recursive: true });
  await sleep(RACY_MS + 20);
  const m = new ListingMemory();
  assert.equal((await measureWorkspace(ws, QUOTA, undefined, m)).files, 1);
  rmSync(path.join(ws, 'sub'), { recursive: true });
  mkdirSync(path.join(ws, 'sub'));
  writeFileSync(path.join(ws, 'sub', 'new'), 'x');
  assert.equal((await measureWorkspace(ws, QUOTA, undefined, m)).files, 2);
  for (let i = 0; i < 20; i++) writeFileSync(path.join(ws, `f${i}`), 'x');
  await sleep(RACY_MS + 20);
  const over = await measureWorkspace(ws, { maxBytes: 1024 ** 3, maxFiles: 5 }, undefined, m);
  assert.equal(over.isOver, true);
  assert.equal(kept(m, ws), null); // stopped at the quota: its listing was not read to its end
});
