/**
 * Measurement helpers for the store benchmark, matching the peer harnesses in
 * ../shared/bench-peers (same JSON fields, same 200-byte step result, same CPU
 * accounting), so `summarize.mjs` can put our lines beside DBOS, LangGraph and
 * the raw-pg floor. Kept as a copy because the peers' folder has its own
 * node_modules and is read-only here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { descendantsIn } from '../lib/sandbox/processes';
import { COMPILED } from './compiled';

export const PG_BASE = process.env.PEERS_PG_BASE || 'postgresql://postgres@127.0.0.1:5432';
export const dbUrl = (name: string) => `${PG_BASE}/${name}`;

export async function ensureDb(name: string, fresh = false): Promise<void> {
  const c = new pg.Client({ connectionString: dbUrl('postgres') });
  await c.connect();
  try {
    if (fresh) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    const r = await c.query('SELECT 1 FROM pg_database WHERE datname=$1', [name]);
    if (r.rowCount === 0) await c.query(`CREATE DATABASE "${name}"`);
  } finally {
    await c.end();
  }
}

function hostBusyMs(): number {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return ((f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] || 0)) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** a /proc/<pid>/stat (or task stat) line: its comm, and its user + system CPU in ms (fields 14 and 15, at 100 Hz) */
export function statCpuMs(st: string): { comm: string; cpuMs: number } {
  const close = st.lastIndexOf(')');
  const f = st.slice(close + 2).split(' ');
  return { comm: st.slice(st.indexOf('(') + 1, close), cpuMs: ((Number(f[11]) + Number(f[12])) * 1000) / 100 };
}

/** a /proc/<pid>/stat line's parent pid (field 4, the second after the comm) */
export const statPpid = (st: string): string => st.slice(st.lastIndexOf(')') + 2).split(' ', 2)[1];

/**
 * The processes below `root` (its children, theirs, …), from each process's parent as /proc has it: a
 * stat read first, so a process read here is judged by its parent at that moment.
 */
export const descendantsOf = (root: string, parents: ReadonlyMap<string, string>): Set<string> => new Set(descendantsIn(root, parents));

/**
 * CPU of the processes `match` takes (by comm and command line), in ms by pid. `below`: only those
 * under that process (this bench's sandbox workers; not another session's on the same machine).
 */
function procCpu(match: (comm: string, cmdline: string) => boolean, below?: string): Map<string, number> {
  const m = new Map<string, number>();
  const stats = new Map<string, string>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      stats.set(pid, readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      /* gone */
    }
  }
  const within = below === undefined ? null : descendantsOf(below, new Map([...stats].map(([pid, st]) => [pid, statPpid(st)])));
  for (const [pid, st] of stats) {
    if (within && !within.has(pid)) continue;
    try {
      const { comm, cpuMs } = statCpuMs(st);
      const pg = comm.startsWith('postgres');
      const cmdline = pg ? '' : readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!match(comm, cmdline)) continue;
      // a server process is one thread: its schedstat (ns) is its CPU, as dbBackendCpu reads it, so the
      // benchmark database's share (dbCpuMs) is measured as finely as the whole (pgCpuMs) it is part of
      m.set(pid, pg ? pgProcessMs(pid, cpuMs) : cpuMs);
    } catch {
      /* gone */
    }
  }
  return m;
}
const isPg = (comm: string) => comm.startsWith('postgres');

/** a /proc/<pid>/schedstat line: the time the task ran on a CPU, in ms (its first field, in ns) */
export const schedstatMs = (line: string): number => Number(line.slice(0, line.indexOf(' '))) / 1e6;

/** a server process's CPU from its schedstat where the kernel has it, else `statMs` (stat's 10 ms ticks) */
function pgProcessMs(pid: string, statMs: number): number {
  try {
    return schedstatMs(readFileSync(`/proc/${pid}/schedstat`, 'utf8'));
  } catch {
    return statMs;
  }
}

/**
 * CPU of the server's backends for database `db` (their title names it: `postgres: … <user> <db> <host> …`),
 * the only part of pgCpuMs that is this benchmark's alone on a shared server (not the WAL writer's, nor others').
 * From schedstat where the kernel has it (ns: a backend's ~200 ms of a 200-run benchmark measured to the
 * microsecond, not to stat's 10 ms ticks); a backend is one thread, so its task's time is the process's.
 */
function dbBackendCpu(db: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const { comm, cpuMs } = statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      if (!comm.startsWith('postgres')) continue;
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(' ').includes(db)) continue;
      m.set(pid, pgProcessMs(pid, cpuMs));
    } catch {
      /* gone */
    }
  }
  return m;
}
const isWorker = (_c: string, cmdline: string) => cmdline.includes('node_worker.mjs') || cmdline.includes('python_worker.py');

/**
 * CPU of each thread of this process (/proc/self/task, Linux; empty elsewhere), by thread id. The
 * main thread runs the JavaScript; the others are V8's compiler and GC helpers (and libuv's pool).
 */
export function threadCpu(): Map<string, number> {
  const m = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return m;
  }
  for (const tid of tids) {
    try {
      m.set(tid, statCpuMs(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')).cpuMs);
    } catch {
      /* ended */
    }
  }
  return m;
}

/**
 * `nodeCpuMs` split between this process's main thread and its other threads, from two threadCpu
 * readings. At 200 runs the others are mostly TurboFan compiling the code as it gets hot: a line
 * measured cold carries the JIT's warm-up, which `nodeOtherThreadsCpuMs` shows apart (null off Linux).
 */
export function splitThreads(before: Map<string, number>, after: Map<string, number>): { nodeMainCpuMs: number | null; nodeOtherThreadsCpuMs: number | null } {
  if (!after.size) return { nodeMainCpuMs: null, nodeOtherThreadsCpuMs: null };
  let main = 0;
  let other = 0;
  for (const [tid, v] of after) {
    const d = v - (before.get(tid) ?? 0);
    if (tid === String(process.pid)) main += d;
    else other += d;
  }
  return { nodeMainCpuMs: Math.round(main), nodeOtherThreadsCpuMs: Math.round(other) };
}

export type Measured<T> = {
  out: T;
  wallMs: number;
  nodeCpuMs: number;
  nodeMainCpuMs: number | null;
  nodeOtherThreadsCpuMs: number | null;
  pgCpuMs: number;
  /** the benchmark database's own backends (measure's `db`) */
  dbCpuMs?: number;
  workerCpuMs: number;
  hostCpuMs: number;
  load1: number;
};

/** `db`: also report dbCpuMs, the CPU of that database's backends (dbBackendCpu) */
export async function measure<T>(fn: () => Promise<T>, db?: string): Promise<Measured<T>> {
  const load1 = +os.loadavg()[0].toFixed(2);
  // the whole (every server process) read before and after the part (this database's backends)
  const p0 = procCpu(isPg);
  const d0 = db ? dbBackendCpu(db) : null;
  // this process's workers only: on a shared machine other sessions' sandbox workers run meanwhile
  const w0 = procCpu(isWorker, String(process.pid));
  const th0 = threadCpu();
  const c0 = process.cpuUsage();
  const h0 = hostBusyMs();
  const t0 = performance.now();
  const out = await fn();
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const threads = splitThreads(th0, threadCpu());
  const hostMs = hostBusyMs() - h0;
  let dMs = 0;
  if (db) for (const [pid, v] of dbBackendCpu(db)) dMs += v - (d0!.get(pid) ?? 0);
  let pgMs = 0;
  for (const [pid, v] of procCpu(isPg)) pgMs += v - (p0.get(pid) ?? 0);
  let wMs = 0;
  for (const [pid, v] of procCpu(isWorker, String(process.pid))) wMs += v - (w0.get(pid) ?? 0);
  return {
    out,
    wallMs: +wallMs.toFixed(1),
    nodeCpuMs: +((c.user + c.system) / 1000).toFixed(1),
    ...threads,
    pgCpuMs: +pgMs.toFixed(1),
    ...(db ? { dbCpuMs: +dMs.toFixed(1) } : {}),
    workerCpuMs: Math.round(wMs),
    hostCpuMs: Math.round(hostMs),
    load1,
  };
}

export function rates(totalSteps: number, m: Measured<unknown>) {
  return {
    stepsPerSec: +((totalSteps * 1000) / m.wallMs).toFixed(1),
    msPerStep: +(m.wallMs / totalSteps).toFixed(3),
    nodeCpuMsPerStep: +(m.nodeCpuMs / totalSteps).toFixed(3),
    nodeMainCpuMsPerStep: m.nodeMainCpuMs === null ? null : +(m.nodeMainCpuMs / totalSteps).toFixed(3),
    nodeOtherThreadsCpuMsPerStep: m.nodeOtherThreadsCpuMs === null ? null : +(m.nodeOtherThreadsCpuMs / totalSteps).toFixed(3),
    pgCpuMsPerStep: +(m.pgCpuMs / totalSteps).toFixed(3),
    workerCpuMsPerStep: +(m.workerCpuMs / totalSteps).toFixed(3),
    hostCpuMsPerStep: +(m.hostCpuMs / totalSteps).toFixed(3),
  };
}

export async function pool(count: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

export function report(obj: Record<string, unknown>): void {
  process.stdout.write(JSON.stringify({ ...obj, compiled: COMPILED, node: process.version, cpus: os.cpus().length, at: new Date().toISOString() }) + '\n');
}
