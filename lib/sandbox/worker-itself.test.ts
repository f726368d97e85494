// Which processes of a worker's cgroup listing are the worker itself, and which are strays a step
// left: the clean listing is skipped unparsed, anything else is parsed, and a pid of the worker that
// is gone is never spared again (a later process given its number is a stray).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { spawn } from 'node:child_process';
import { cgroupStatus, createWorkerCgroup, inWorkerCgroup, listingOf, pidsIn, releaseWorkerCgroup } from './cgroups';
import { WorkerItself } from './worker-itself';

const listing = (...pids: number[]) => Buffer.from(pids.map((p) => `${p}\n`).join(''));

test('the listing at ready is the worker itself; anything new in a later listing is a stray', () => {
  const itself = new WorkerItself(listing(10, 11, 12));
  assert.deepEqual(itself.strays(listing(10, 11, 12)), []);
  assert.deepEqual(itself.strays(listing(10, 11, 12, 99)), [99]);
  assert.deepEqual(itself.strays(listing(10, 11, 12, 99, 100)), [99, 100], 'still strays until they are gone');
  assert.deepEqual(itself.strays(listing(10, 11, 12)), []);
  assert.deepEqual(itself.strays(listing(9, 10, 11, 12)), [9], 'a stray listed before the worker (a lower pid after a wrap)');
});

test('a process of the worker that is gone is never spared again: its number, reused, is a stray', () => {
  const itself = new WorkerItself(listing(10, 11, 12));
  assert.deepEqual(itself.strays(listing(10, 11)), [], '12 (say tsx’s esbuild, killed by the code) is gone');
  assert.deepEqual(itself.strays(listing(10, 11, 12)), [12], 'a new process given pid 12');
  assert.deepEqual(itself.strays(listing(10, 11)), []);
  assert.deepEqual(itself.strays(listing(10, 11)), [], 'the new clean listing');
  assert.deepEqual(itself.strays(listing(10, 11, 12)), [12]);
});

test('a worker pid that goes in the same listing as a stray comes: the old clean listing is not trusted again', () => {
  const itself = new WorkerItself(listing(10, 11, 12));
  // 12 is gone and a stray 13 came: the stray is killed, and the clean listing (which names 12) is dropped
  assert.deepEqual(itself.strays(listing(10, 11, 13)), [13]);
  // the very bytes of the ready listing, 12 now a new process: a stray, not the clean listing
  assert.deepEqual(itself.strays(listing(10, 11, 12)), [12]);
});

test('an unreadable listing at ready keeps nothing: every listed process is a stray', () => {
  const itself = new WorkerItself(Buffer.alloc(0));
  assert.deepEqual(itself.strays(listing(10)), [10]);
  assert.deepEqual(itself.strays(Buffer.alloc(0)), []);
});

test('a listing longer than the read buffer is read whole, and read afresh each time', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-listing-'));
  const procsFile = path.join(dir, 'cgroup.procs');
  const many = Array.from({ length: 5000 }, (_, i) => 100_000 + i);
  writeFileSync(procsFile, listing(...many));
  const cg = { dirs: [dir], procsFile, memory: null };
  assert.deepEqual(pidsIn(listingOf(cg)!), many);
  writeFileSync(procsFile, listing(7, 8));
  assert.deepEqual(pidsIn(listingOf(cg)!), [7, 8]);
  assert.equal(listingOf({ ...cg, procsFile: path.join(dir, 'gone') }), null, 'unreadable: null, not an empty listing');
});

test('a real cgroup listing read in reads too small for it is read whole (a short read ends it only when a next line would have fit)', { skip: cgroupStatus().pids ? false : 'no pids cgroup here' }, async () => {
  const cg = createWorkerCgroup({ maxProcesses: 64, memoryBytes: 256 * 1024 * 1024 })!;
  const children = Array.from({ length: 6 }, () => {
    const { command, args } = inWorkerCgroup(cg, 'sleep', ['60']);
    return spawn(command, args, { stdio: 'ignore' });
  });
  try {
    const pids = children.map((c) => c.pid!).sort((a, b) => a - b);
    for (let i = 0; i < 100 && pidsIn(listingOf(cg) ?? Buffer.alloc(0)).length < pids.length; i++) await new Promise((r) => setTimeout(r, 20));
    const whole = pidsIn(listingOf(cg)!).sort((a, b) => a - b);
    assert.deepEqual(whole, pids, 'one read of a page: every process');
    // reads of 9..24 bytes end mid-line and hold one or two lines: each short of the whole listing
    for (let want = 9; want <= 24; want++) assert.deepEqual(pidsIn(listingOf(cg, want)!).sort((a, b) => a - b), pids, `reads of ${want} bytes`);
  } finally {
    for (const c of children) c.kill('SIGKILL');
    await releaseWorkerCgroup(cg);
  }
});
