// threadCpu / splitThreads: the bench lines' split of this process's CPU between its main thread
// (the JavaScript) and its other threads (V8's compiler and GC helpers); statCpuMs, the stat line they all read;
// measure's workerCpuMs, this process's sandbox workers only (descendantsOf)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { descendantsOf, measure, schedstatMs, splitThreads, statCpuMs, statPpid, threadCpu } from './bench-common';

test("splitThreads counts the main thread's delta apart from every other thread's, one that started meanwhile whole", () => {
  const main = String(process.pid);
  const before = new Map([
    [main, 100],
    ['7001', 40],
  ]);
  const after = new Map([
    [main, 350],
    ['7001', 70],
    ['7002', 20], // a thread started during the measure
  ]);
  assert.deepEqual(splitThreads(before, after), { nodeMainCpuMs: 250, nodeOtherThreadsCpuMs: 50 });
});

test('splitThreads says null for both when the threads cannot be read (no /proc)', () => {
  assert.deepEqual(splitThreads(new Map(), new Map()), { nodeMainCpuMs: null, nodeOtherThreadsCpuMs: null });
});

test('threadCpu reads every thread of this process, the main one under the process id', { skip: process.platform !== 'linux' }, () => {
  const t = threadCpu();
  assert.ok(t.has(String(process.pid)), [...t.keys()].join(','));
  assert.ok(t.size > 1, 'node runs helper threads beside the main one'); // V8's platform workers, at least
  const total = [...t.values()].reduce((x, y) => x + y, 0);
  const own = process.cpuUsage();
  // the same CPU as the process's own count, to the clock tick (10 ms) per thread
  assert.ok(Math.abs(total - (own.user + own.system) / 1000) <= 10 * t.size + 10, `threads ${total} ms, process ${(own.user + own.system) / 1000} ms`);
});

test('statCpuMs reads the comm whole (spaces and parentheses in it) and utime + stime at 100 Hz', () => {
  // fields after the comm: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
  const line = '4242 (postgres: a (b) c) S 1 4242 4242 0 -1 4194560 10 0 0 0 123 45 0 0 20 0 1 0 99 0 0\n';
  assert.deepEqual(statCpuMs(line), { comm: 'postgres: a (b) c', cpuMs: 1680 });
});

test('schedstatMs reads the time on a CPU (the first field, ns) in ms', () => {
  assert.equal(schedstatMs('2234115288 5822983945 2866\n'), 2234.115288);
  assert.ok(schedstatMs(readFileSync('/proc/self/schedstat', 'utf8')) > 0);
});

test('statPpid reads the parent pid, the second field after the comm', () => {
  assert.equal(statPpid('4242 (node (x) y) S 77 4242 4242 0 -1 4194560 10 0 0 0 123 45\n'), '77');
  assert.equal(statPpid(readFileSync('/proc/self/stat', 'utf8')), String(process.ppid));
});

test('descendantsOf takes the processes below the root, however deep, and none beside or above it', () => {
  // 10 is the root: 11 and 12 its children, 13 a grandchild, 14 below 13; 20 and 21 another tree; 1 init
  const parents = new Map([
    ['1', '0'],
    ['10', '1'],
    ['11', '10'],
    ['12', '10'],
    ['13', '11'],
    ['14', '13'],
    ['20', '1'],
    ['21', '20'],
    ['30', '99'], // its parent gone since
  ]);
  assert.deepEqual([...descendantsOf('10', parents)].sort(), ['11', '12', '13', '14']);
  assert.deepEqual([...descendantsOf('14', parents)], []);
});

/** a process named like a sandbox worker (its command line holds node_worker.mjs) that spins for `ms` */
const BUSY = (ms: number) => `const t = Date.now(); while (Date.now() - t < ${ms}) {}`;
const cpuOf = (pid: number | string) => statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8')).cpuMs;
const stop = (pid: number | string | undefined) => {
  try {
    if (pid !== undefined) process.kill(Number(pid), 'SIGKILL');
  } catch {
    /* ended */
  }
};

test("measure's workerCpuMs counts this process's workers, not another process tree's", { skip: process.platform !== 'linux' }, async () => {
  // another session's worker on the same machine: started by a shell that exits at once, so it is below nobody of ours
  const other = spawn('sh', ['-c', `${JSON.stringify(process.execPath)} -e '${BUSY(4000)}' node_worker.mjs >/dev/null 2>&1 & echo $!`]);
  const otherPid = await new Promise<string>((resolve) => other.stdout.once('data', (d) => resolve(String(d).trim())));
  let own: ReturnType<typeof spawn> | undefined;
  try {
    await new Promise((r) => setTimeout(r, 100)); // its shell gone: it is init's (or a subreaper's) now
    const before = cpuOf(otherPid);
    const quiet = await measure(() => new Promise((r) => setTimeout(r, 800)));
    const spent = cpuOf(otherPid) - before;
    assert.ok(spent >= 50, `the other worker spun meanwhile: ${spent} ms`);
    assert.ok(quiet.workerCpuMs <= 20, `the other tree's worker not counted: ${quiet.workerCpuMs} ms (it spent ${spent} ms)`);
    // this process's own worker, alive across the measure
    own = spawn(process.execPath, ['-e', BUSY(4000), 'node_worker.mjs'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 100));
    const ownBefore = cpuOf(own.pid!);
    const busy = await measure(() => new Promise((r) => setTimeout(r, 800)));
    const ownSpent = cpuOf(own.pid!) - ownBefore;
    assert.ok(busy.workerCpuMs >= Math.min(50, ownSpent), `own worker counted: ${busy.workerCpuMs} ms (it spent ${ownSpent} ms)`);
  } finally {
    stop(otherPid);
    stop(own?.pid);
  }
});
