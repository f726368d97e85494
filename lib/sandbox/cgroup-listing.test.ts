// A worker's cgroup listed through the cgroup2 descriptor kept open (cgroups.ts WorkerCgroup.kept):
// each read is the cgroup as it is now — a process that joined since the last read is named, one
// that is gone is not — a folder a worker's join missed is named (foldersLacking), and the folder
// made for it goes with the worker's cgroup.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cgroupStatus, createWorkerCgroup, dropKeptListing, foldersLacking, inWorkerCgroup, listingOf, pidsIn, releaseWorkerCgroup, type WorkerCgroup } from './cgroups';
import { isProcessAlive } from './processes';

const status = cgroupStatus();
const skip = status.listing && (status.pids || status.memory) ? false : `no cgroup2 hierarchy to list workers in here (${status.reason || 'controllers on v1 only'})`;
const LIMITS = { maxProcesses: 64, memoryBytes: 256 * 1024 * 1024 };

/** `sleep 60` launched as a worker is, joining the cgroup's folders (`cg`'s, or `joins`' when given) */
function joined(cg: WorkerCgroup, joins: WorkerCgroup = cg): ChildProcess {
  const { command, args } = inWorkerCgroup(joins, 'sleep', ['60']);
  return spawn(command, args, { stdio: 'ignore' });
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(ok(), what);
}

const listed = (cg: WorkerCgroup) => pidsIn(listingOf(cg) ?? Buffer.alloc(0));

test('a kept listing is read afresh: a process that joins after a read is in the next one, one killed is not', { skip }, async () => {
  const cg = createWorkerCgroup(LIMITS)!;
  const children: ChildProcess[] = [];
  try {
    assert.ok(cg.kept, 'the cgroup has a kept cgroup2 listing');
    const fd = cg.kept.fd;
    const a = joined(cg);
    children.push(a);
    await until('the first process is listed', () => listed(cg).includes(a.pid!));
    assert.deepEqual(listed(cg), [a.pid], 'nothing else');
    // the same folder's listing opened afresh each time: the kept one must say the same at once, not
    // after a while (cgroup v1 answers a kept descriptor from a list it made up to a second before)
    const fresh = () => pidsIn(listingOf({ ...cg, kept: null, procsFile: cg.kept!.file })!);
    const b = joined(cg);
    children.push(b);
    await until('the second process has joined', () => fresh().includes(b.pid!));
    assert.deepEqual(listed(cg).sort(), [a.pid, b.pid].sort(), 'a process that joined after the last read is in the very next one');
    assert.equal(cg.kept?.fd, fd, 'through the same descriptor');
    b.kill('SIGKILL');
    await new Promise((r) => b.once('exit', r));
    await until('the killed process has left', () => !fresh().includes(b.pid!));
    assert.deepEqual(listed(cg), [a.pid], 'a killed process is not in the very next read');
  } finally {
    for (const c of children) c.kill('SIGKILL');
    await releaseWorkerCgroup(cg);
  }
});

test('a folder whose join failed is named by foldersLacking; the first folder still lists the worker', { skip }, async () => {
  const cg = createWorkerCgroup(LIMITS)!;
  let child: ChildProcess | null = null;
  try {
    assert.ok(cg.kept);
    const keptDir = path.dirname(cg.kept.file);
    // the launcher joined every folder but the kept listing's (as when that join failed)
    child = joined(cg, { ...cg, dirs: cg.dirs.filter((d) => d !== keptDir) });
    await until('the worker is in its first folder', () => pidsIn(listingOf({ ...cg, kept: null }) ?? Buffer.alloc(0)).includes(child!.pid!));
    assert.deepEqual(listed(cg), [], 'the kept listing does not name it');
    const { lacking, listings } = foldersLacking(cg, child.pid);
    assert.deepEqual(lacking, [keptDir], "only the kept listing's folder lacks it");
    assert.deepEqual(pidsIn(listings.get(path.dirname(cg.procsFile))!), [child.pid], 'what the first folder listed, handed back (read once at ready)');
    dropKeptListing(cg); // what SandboxWorker.listingAtReady does then (cgroup-join.test.ts)
    assert.equal(cg.kept, null, 'dropped');
    assert.deepEqual(listed(cg), [child.pid], 'the worker, listed from the first folder from then on');
  } finally {
    child?.kill('SIGKILL');
    await releaseWorkerCgroup(cg);
  }
});

test('a worker joined to every folder lacks none; one whose pid is unknown lacks all', { skip }, async () => {
  const cg = createWorkerCgroup(LIMITS)!;
  const child = joined(cg);
  try {
    await until('listed', () => listed(cg).includes(child.pid!));
    const { lacking, listings } = foldersLacking(cg, child.pid);
    assert.deepEqual(lacking, []);
    assert.deepEqual([...listings.keys()], cg.dirs, 'each folder read once, what it listed handed back');
    for (const dir of cg.dirs) assert.deepEqual(pidsIn(listings.get(dir)!), [child.pid], dir);
    assert.deepEqual(foldersLacking(cg, undefined), { lacking: cg.dirs, listings: new Map() }, 'not trusted, nothing read');
  } finally {
    child.kill('SIGKILL');
    await releaseWorkerCgroup(cg);
  }
});

test("the folder made for the listing goes with the worker's cgroup, and what was in it is killed", { skip }, async () => {
  const cg = createWorkerCgroup(LIMITS)!;
  const keptDir = path.dirname(cg.kept!.file);
  assert.ok(cg.dirs.includes(keptDir), 'it is one of the folders the launcher joins');
  const child = joined(cg);
  await until('listed', () => listed(cg).includes(child.pid!));
  await releaseWorkerCgroup(cg);
  assert.equal(cg.kept, null, 'its descriptor is closed');
  assert.equal(existsSync(keptDir), false, 'the folder is removed');
  await until('the process in it is killed', () => !isProcessAlive(child.pid!) || child.exitCode !== null || child.signalCode !== null);
});
