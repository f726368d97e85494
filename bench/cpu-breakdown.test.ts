// cpu-breakdown: a perf script of the compiled bench → the main thread's CPU by what the code does
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { breakdown, frameOf, moduleLines } from './cpu-breakdown';

/** a compiled bundle as esbuild writes it: each module's code below a `// <source path>` line */
function bundleDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-cpu-breakdown-'));
  const lines = ['import x from "y";', '// lib/kernel/runner.ts', 'function newRun() {}', 'async function end() {}', '// lib/store/wire.ts', 'function jsonRowsOf() {}', '// lib/sandbox/worker.ts', 'function run() {}'];
  writeFileSync(path.join(dir, 'bench-store.mjs'), lines.join('\n'));
  return dir;
}
const url = (dir: string) => `file://${dir}/.bench-build/x/bench-store.mjs`;

test('frameOf finds a compiled function’s module by the line esbuild marks above it, and names pg’s and node’s apart', () => {
  const lines = moduleLines(bundleDir());
  const at = (line: number, fn = 'f') => frameOf(`JS:^${fn} file:///w/.bench-build/x/bench-store.mjs:${line}:3+0x1f`, lines);
  assert.deepEqual(at(3, 'newRun'), { module: 'lib/kernel/runner.ts', fn: 'newRun' });
  assert.deepEqual(at(6, 'jsonRowsOf'), { module: 'lib/store/wire.ts', fn: 'jsonRowsOf' });
  assert.equal(at(1).module, 'bench-store.mjs'); // above every marker: the entry's own code
  assert.equal(frameOf('JS:*submit /w/node_modules/pg/lib/query.js:152:9', lines).module, 'pg');
  assert.equal(frameOf('JS:^onStreamRead node:internal/stream_base_commons:168:22', lines).module, 'node:internal/stream_base_commons');
  assert.equal(frameOf('v8::internal::Heap::Scavenge', lines).module, '(native)');
});

test('breakdown puts each sample in the first category any frame of its stack belongs to, and counts those in the OS kernel', () => {
  const dir = bundleDir();
  const sample = (...frames: string[]) => ['node 1 1.0: 250000 cpu-clock:ppp:', ...frames.map((f) => `\t    7f00 ${f}`)].join('\n');
  const js = (line: number, fn: string) => `JS:^${fn} ${url(dir)}:${line}:3+0x10 (/tmp/perf-1.map)`;
  const text = [
    // the encoding, called from the run's end: the encoding's
    sample(js(6, 'jsonRowsOf'), js(4, 'end')),
    // a syscall made by the sandbox's call: the sandbox's, in the kernel
    sample('do_syscall_64+0x71 ([kernel.kallsyms])', 'writeUtf8String+0x2 (/usr/bin/node)', js(8, 'run'), js(3, 'newRun')),
    sample(js(3, 'newRun')),
    sample('v8::internal::Heap::Scavenge+0x10 (/usr/bin/node)'),
    sample('uv__io_poll+0x1 (/usr/bin/node)'),
  ].join('\n\n');
  const { total, shares } = breakdown(text, moduleLines(dir));
  assert.equal(total, 5);
  const by = Object.fromEntries(shares.map((s) => [s.category, [s.samples, s.inKernel]]));
  // each sample also counted for the innermost function of ours on its stack (a syscall: the sandbox's run), or its leaf
  const fns = Object.fromEntries(shares.map((s) => [s.category, Object.fromEntries(s.functions)]));
  assert.deepEqual(fns['sandbox call (lib/sandbox)'], { 'lib/sandbox/worker.ts run': 1 });
  assert.deepEqual(fns['encode for the wire (wire.ts)'], { 'lib/store/wire.ts jsonRowsOf': 1 });
  assert.deepEqual(fns.GC, { 'v8::internal::Heap::Scavenge': 1 });
  assert.deepEqual(fns['node: event loop, streams, promises'], { uv__io_poll: 1 });
  assert.deepEqual(by, {
    'encode for the wire (wire.ts)': [1, 0],
    'sandbox call (lib/sandbox)': [1, 1],
    'run creation (runner newRun, startRun, create)': [1, 0],
    GC: [1, 0],
    'node: event loop, streams, promises': [1, 0],
  });
});
