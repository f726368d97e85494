// npm run bench:call [-- --calls N --reps R] — one warm code-step call in the sandbox a run gets
// (bubblewrap where it works, a workspace with the default quota), the bench:store step's module and
// shape: wall per call, this process's CPU per call (the host side: the call path, the protocol, the
// stray kill and the quota walk) and the worker's (its process tree, from /proc). One JSON line per
// rep (harness `sandbox/call`); then the quota walk alone (`sandbox/walk`), CPU per measurement of an
// empty workspace and of one holding 99 entries (90 files at its top, 8 in a folder).
//   --gap MS   wait MS between a reply and the next call (default 0: back to back), as a run's steps do
//              while their commit is on the wire: the worker then sleeps between calls, and waking it
//              costs it more than the call (node worker, loaded 2-core machine, CPU per call: 0.13 ms back
//              to back, 0.21-0.23 ms with 3 ms between calls, 0.34 ms with 10 ms; an echo that only reads
//              a line and writes one costs 0.10 / 0.23 ms). msPerCall then includes the gap, and the host's
//              CPU one timer per call.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCodeSandbox } from '../lib/sandbox';
import { isolationFor, sandboxMode } from '../lib/sandbox/isolation';
import { measureWorkspace, workspaceQuotaFromEnv } from '../lib/sandbox/workspace-usage';
import type { Json } from '../lib/kernel/json';
import { size } from './tiny';
import { COMPILED } from './compiled';

const { values: a } = parseArgs({ options: { calls: { type: 'string', default: size('4000', '50') }, reps: { type: 'string', default: size('3', '1') }, gap: { type: 'string', default: '0' }, tiny: { type: 'boolean' } } });
const GAP_MS = Number(a.gap);
if (!(GAP_MS >= 0)) throw new Error(`--gap ${a.gap}: milliseconds between calls, 0 or more`);
const N = Number(a.calls);
const ROOT = mkdtempSync(path.join(tmpdir(), 'sc-callbench-'));
const WORK = path.join(ROOT, 'work');
mkdirSync(WORK);
const mod = path.join(ROOT, 'step.mjs');
writeFileSync(
  mod,
  `function stepResult(runId, i) {
  const o = { run: String(runId), step: i, ok: true, sum: (i * 2654435761) % 1000003, tag: \`step-\${i}\` };
  const base = JSON.stringify({ ...o, pad: '' }).length;
  o.pad = 'x'.repeat(Math.max(0, 200 - base));
  return o;
}
export function step(v) { const i = v.i ?? 0; return { i: i + 1, last: stepResult(v.run, i) }; }
`,
);
const isolation = isolationFor(sandboxMode(process.env), { cacheDir: ROOT });
// BENCH_CALL_GUARD=off: no workspace (and so no quota walk), to see what the guard costs
const inWorkspace = process.env.BENCH_CALL_GUARD !== 'off';
const sandbox = createCodeSandbox({ maxWorkersPerLanguage: 1, bundleDir: ROOT, ...(inWorkspace ? { workDir: WORK, workspaceQuota: workspaceQuotaFromEnv({}) } : {}), isolation });

/** CPU ms of this process's child processes and their trees (the worker: bubblewrap, its pid 1, the interpreter) */
function workerCpuMs(): number {
  let ticks = 0;
  for (const pid of workerPids()) {
    try {
      const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // gone
    }
  }
  return ticks * 10;
}
function workerPids(): number[] {
  const out: number[] = [];
  for (const name of readFileSync('/proc/self/task/' + process.pid + '/children', 'utf8').split(' ').filter(Boolean)) out.push(...tree(Number(name)));
  return out;
}
function tree(pid: number): number[] {
  let kids: string[] = [];
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
  } catch {
    // gone
  }
  return [pid, ...kids.flatMap((k) => tree(Number(k)))];
}

async function calls(n: number): Promise<void> {
  let v: Json = { run: 'r', i: 0 };
  for (let i = 0; i < n; i++) {
    const out = (await sandbox.call({ language: 'node', modulePath: mod, exportName: 'step', input: v, timeoutMs: 30_000 })) as { i: number };
    v = { run: 'r', i: out.i };
    if (GAP_MS > 0) await new Promise((r) => setTimeout(r, GAP_MS));
  }
}

/** CPU per measureWorkspace of `dir` (the walk after every code step) */
async function walkLine(dir: string): Promise<void> {
  const quota = workspaceQuotaFromEnv({});
  const n = size(3000, 20);
  for (let i = 0; i < n / 10; i++) await measureWorkspace(dir, quota);
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await measureWorkspace(dir, quota);
  const c = process.cpuUsage(c0);
  const { files } = await measureWorkspace(dir, quota);
  console.log(JSON.stringify({ harness: 'sandbox/walk', compiled: COMPILED, files, cpuUsPerWalk: +((c.user + c.system) / n).toFixed(1), sysUsPerWalk: +(c.system / n).toFixed(1) }));
}

try {
  await calls(size(200, 10));
  for (let r = 0; r < Number(a.reps); r++) {
    const w0 = workerCpuMs();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await calls(N);
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const w = workerCpuMs() - w0;
    const load1 = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
    console.log(JSON.stringify({ harness: 'sandbox/call', compiled: COMPILED, sandbox: isolation.kind, calls: N, gapMs: GAP_MS, msPerCall: +(wall / N).toFixed(4), hostCpuMsPerCall: +((c.user + c.system) / 1000 / N).toFixed(4), hostSysMsPerCall: +(c.system / 1000 / N).toFixed(4), workerCpuMsPerCall: +(w / N).toFixed(4), load1 }));
  }
  await sandbox.close();
  const empty = path.join(ROOT, 'empty');
  const full = path.join(ROOT, 'full');
  mkdirSync(empty);
  mkdirSync(path.join(full, 'sub'), { recursive: true });
  for (let i = 0; i < 90; i++) writeFileSync(path.join(full, `f${i}`), 'x');
  for (let i = 0; i < 8; i++) writeFileSync(path.join(full, 'sub', `g${i}`), 'y');
  await walkLine(empty);
  await walkLine(full);
} finally {
  await sandbox.close();
  rmSync(ROOT, { recursive: true, force: true });
}
