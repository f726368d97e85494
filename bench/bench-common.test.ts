// threadCpu / splitThreads: the bench lines' split of this process's CPU between its main thread
// (the JavaScript) and its other threads (V8's compiler and GC helpers); statCpuMs, the stat line they all read
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { schedstatMs, splitThreads, statCpuMs, threadCpu } from './bench-common';

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
