/**
 * A cgroup per code worker: a cap on its processes and threads (the `pids`
 * controller) and on its memory (the `memory` controller), joined by the
 * worker's launcher before it execs, so everything the code forks is counted —
 * and listed.
 *
 * - pids: a fork bomb hits the cap (fork fails with EAGAIN inside the step)
 *   and the host keeps its process table.
 * - memory: the worker's memory limit counts the whole tree — every child it
 *   forks (each of which would otherwise get a limit of its own) and the pages
 *   of its tmpfs (`/tmp`, `/dev/shm` in bubblewrap), which no rlimit sees. A
 *   tree over the limit is reclaimed, then OOM-killed inside the cgroup only;
 *   `oomKills` tells the caller that is what happened.
 * - the listing: `tasksOf` names every process of the worker's tree, so what a
 *   step started can be killed when the step ends (sandbox.ts), and whatever
 *   is left when the worker exits is killed and the cgroup removed — which
 *   also reaps detached children of an unsandboxed worker. It is read after
 *   every call, so where a cgroup2 hierarchy is writable (pure v2, or the
 *   `unified` mount of a hybrid host, in a folder with no controller) it is
 *   read there, through a descriptor kept open (`WorkerCgroup.kept`).
 *
 * Owns: finding where this process may make child cgroups of each controller
 * (inside its own cgroup: cgroup v1's `/sys/fs/cgroup/<controller>/<own>`, or
 * a cgroup2 mount with the controller delegated — never the root, so workers
 * stay within the server's own limits and service) and of none (a cgroup2
 * folder to list a worker in), the per-worker cgroups
 * (`stagecraft-<server pid>-<token>-<n>`), their cleanup, and sweeping those of
 * servers that are gone. Does not: spawn workers (worker.ts), decide what a
 * step may keep (sandbox.ts) or isolate them (isolation.ts). Where neither
 * controller is writable (not root, a container without delegation) workers
 * run without either cap, and `cgroupStatus()` says why.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from './processes';

/** processes + threads per worker: far above what a step's interpreter needs (node ~12, esbuild ~20) */
export const DEFAULT_MAX_PROCESSES = 256;

const PREFIX = 'stagecraft-';
/** names this process's cgroups apart from another server's with the same pid (another pid namespace) */
const TOKEN = randomBytes(4).toString('hex');

type Controller = 'pids' | 'memory';
const CONTROLLERS: Controller[] = ['pids', 'memory'];
/** a place where this process may make child cgroups of a controller, and that hierarchy's version */
type Place = { dir: string; version: 1 | 2 };

/** the file a fresh cgroup of that controller has at once (a plain folder, on tmpfs, has none) */
const PROBE_FILE: Record<Controller, Record<1 | 2, string>> = {
  pids: { 1: 'pids.max', 2: 'pids.max' },
  memory: { 1: 'memory.limit_in_bytes', 2: 'memory.max' },
};

/** This process's own cgroup per hierarchy (from /proc/self/cgroup): where child cgroups of a controller may be made. */
function candidates(controller: Controller): Place[] {
  let lines: string[] = [];
  try {
    lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  } catch {
    return [];
  }
  const out: Place[] = [];
  for (const line of lines) {
    const [, controllers, own] = line.split(':');
    if (own === undefined) continue;
    if (controllers.split(',').includes(controller)) out.push({ dir: path.join('/sys/fs/cgroup', controller, own), version: 1 });
    if (controllers === '') out.push({ dir: path.join('/sys/fs/cgroup', own), version: 2 }, { dir: path.join('/sys/fs/cgroup/unified', own), version: 2 });
  }
  return out;
}

/** `listing`: a cgroup2 hierarchy where a worker's folder may be made to list its processes (see WorkerCgroup.kept) */
/**
 * `reason`: why no cgroup of a controller can be made here ('' when both can). `missed`: the last
 * time a worker started outside a folder of its cgroup (the launcher's join is best effort: see
 * `foldersLacking`), what of its walls did not hold for it ('' while that never happened).
 */
export type CgroupStatus = Record<Controller, Place | null> & { listing: Place | null; reason: string; missed: string };
let status: CgroupStatus | null = null;

/** Where per-worker cgroups are made here, per controller; probed once (and abandoned ones swept then). */
export function cgroupStatus(): CgroupStatus {
  if (status) return status;
  const found = Object.fromEntries(CONTROLLERS.map((c) => [c, probe(c)])) as Record<Controller, Place | null>;
  const missing = CONTROLLERS.filter((c) => !found[c]);
  const reason = missing.length ? `no writable ${missing.join(' or ')} cgroup (cgroup v1, or cgroup2 with the controller delegated) in /sys/fs/cgroup` : '';
  const listing = CONTROLLERS.map((c) => found[c]).find((p) => p?.version === 2) ?? probeListing();
  status = { ...found, listing, reason, missed: '' };
  for (const place of new Set([...CONTROLLERS, 'listing' as const].flatMap((c) => (status![c] ? [status![c]!.dir] : [])))) sweepAbandoned(place);
  return status;
}

/** A cgroup2 hierarchy (no controller needed) where this process may make child cgroups: a hybrid host's `unified` mount. */
function probeListing(): Place | null {
  for (const place of candidates('pids').filter((p) => p.version === 2)) {
    const dir = path.join(place.dir, `${PREFIX}probe-${process.pid}-listing`);
    try {
      mkdirSync(dir);
    } catch {
      continue;
    }
    try {
      if (existsSync(path.join(dir, 'cgroup.procs'))) return place; // a plain folder (tmpfs) has none
    } finally {
      removeQuietly(dir);
    }
  }
  return null;
}

function probe(controller: Controller): Place | null {
  for (const place of candidates(controller)) {
    const dir = path.join(place.dir, `${PREFIX}probe-${process.pid}-${controller}`);
    try {
      mkdirSync(dir);
    } catch {
      continue;
    }
    try {
      const file = path.join(dir, PROBE_FILE[controller][place.version]);
      if (!existsSync(file)) continue;
      writeFileSync(file, controller === 'pids' ? '1' : String(64 * 1024 * 1024));
      return place;
    } catch {
      continue;
    } finally {
      try {
        rmdirSync(dir);
      } catch {
        // a tmpfs folder or a cgroup: either is removed by rmdir; nothing else to do
      }
    }
  }
  return null;
}

/** One worker's cgroups: one folder per hierarchy (cgroup2 has one for both controllers). */
export type WorkerCgroup = {
  dirs: string[];
  /** where its processes are listed: the first folder's cgroup.procs (every folder lists the same ones) */
  procsFile: string;
  /**
   * Its cgroup2 folder's cgroup.procs, kept open: read again from offset 0 it is listed afresh (the
   * kernel restarts its walk of the cgroup's tasks: cgroup_procs_start), so a listing costs one pread
   * instead of an open, a read and a close of procsFile (v1 has to be opened afresh: see listingOf).
   * 3.2 vs 12.6 µs of CPU per listing here, after every call. A hybrid host (controllers on cgroup v1,
   * a `unified` cgroup2 mount beside them) gets a cgroup2 folder for this alone. Null once dropped
   * (`dropKeptListing`: it did not list the worker, or the cgroup is being removed).
   */
  kept?: { fd: number; file: string } | null;
  /** the folder holding its memory limit, and its version */
  memory: Place | null;
  /** the limits, and the folder holding its cap of processes (absent: a cgroup only to be swept) */
  caps?: { limits: WorkerCgroupLimits; pidsDir: string | null };
};

export type WorkerCgroupLimits = { maxProcesses: number; memoryBytes: number };

/** Fresh cgroups for one worker with these caps; null where none can be made. */
export function createWorkerCgroup(limits: WorkerCgroupLimits): WorkerCgroup | null {
  const st = cgroupStatus();
  const name = `${PREFIX}${process.pid}-${TOKEN}-${++counter}`;
  const made: string[] = [];
  let memory: Place | null = null;
  let pidsDir: string | null = null;
  try {
    for (const controller of CONTROLLERS) {
      const place = st[controller];
      if (!place) continue;
      const dir = path.join(place.dir, name);
      if (!made.includes(dir)) {
        mkdirSync(dir);
        made.push(dir);
      }
      if (controller === 'pids') {
        writeFileSync(path.join(dir, 'pids.max'), String(limits.maxProcesses));
        pidsDir = dir;
      } else {
        setMemoryLimit(dir, place.version, limits.memoryBytes);
        memory = { dir, version: place.version };
      }
    }
  } catch {
    for (const dir of made) removeQuietly(dir);
    return null;
  }
  if (!made.length) return null;
  return { dirs: made, procsFile: path.join(made[0], 'cgroup.procs'), kept: keptListing(st, name, made), memory, caps: { limits, pidsDir } };
}

/** The worker's cgroup2 listing, kept open: a folder of `made` on cgroup2, else one made for it (added to `made`, so it is joined and removed). */
function keptListing(st: CgroupStatus, name: string, made: string[]): WorkerCgroup['kept'] {
  if (!st.listing) return null;
  const dir = path.join(st.listing.dir, name);
  if (!made.includes(dir)) {
    try {
      mkdirSync(dir);
    } catch {
      return null; // listed afresh from procsFile, as on v1
    }
    made.push(dir);
  }
  const file = path.join(dir, 'cgroup.procs');
  try {
    return { fd: openSync(file, 'r'), file };
  } catch {
    return null;
  }
}

/** Closes the kept listing; from then on the cgroup is listed by opening procsFile afresh. */
export function dropKeptListing(cg: WorkerCgroup): void {
  if (!cg.kept) return;
  closeQuietly(cg.kept.fd);
  cg.kept = null;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // closed already
  }
}

let counter = 0;

function setMemoryLimit(dir: string, version: 1 | 2, bytes: number): void {
  if (version === 2) {
    writeFileSync(path.join(dir, 'memory.max'), String(bytes));
    tryWrite(path.join(dir, 'memory.swap.max'), '0'); // swap would let the tree grow past its limit on disk
    return;
  }
  writeFileSync(path.join(dir, 'memory.limit_in_bytes'), String(bytes));
  tryWrite(path.join(dir, 'memory.memsw.limit_in_bytes'), String(bytes)); // memory + swap: no swap beyond the limit
}

function tryWrite(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch {
    // the kernel has no swap accounting here: nothing more to cap
  }
}

/**
 * The launch of `command args` inside the worker's cgroups: a shell that moves itself into each, then
 * execs (so the worker and all it forks are counted). Joining is best effort: a worker still starts.
 */
export function inWorkerCgroup(cg: WorkerCgroup, command: string, args: string[]): { command: string; args: string[] } {
  const joins = cg.dirs.map((_, i) => `echo $$ > "$${i + 1}/cgroup.procs";`).join(' ');
  return { command: '/bin/sh', args: ['-c', `{ ${joins} } 2>/dev/null; shift ${cg.dirs.length}; exec "$@"`, 'sh', ...cg.dirs, command, ...args] };
}

/**
 * The folders of the worker's cgroup whose listing does not name `pid` (the worker as launched): those
 * its launcher's best-effort join missed (the folder gone or not a cgroup, the write refused) — every
 * folder when the pid is unknown, none then read. One read of each: called once per worker start,
 * never per call. `listings`: what each folder read listed (the caller's clean listing, not read again).
 */
export function foldersLacking(cg: WorkerCgroup, pid: number | undefined): { lacking: string[]; listings: Map<string, Buffer> } {
  const listings = new Map<string, Buffer>();
  if (pid === undefined) return { lacking: [...cg.dirs], listings };
  const lacking = cg.dirs.filter((dir) => {
    try {
      const listing = readFileSync(path.join(dir, 'cgroup.procs'));
      listings.set(dir, listing);
      return !pidsIn(listing).includes(pid);
    } catch {
      return true;
    }
  });
  return { lacking, listings };
}

let isMissWarned = false;

/**
 * Says that worker `pid` runs outside the folders `lacking` of its cgroup and what that leaves it
 * without: kept in `cgroupStatus().missed` (GET /api/health shows it) and written to stderr once per
 * process (the first time; the status keeps the latest). `listedByParentage`: its strays are found
 * among its descendants instead of in the cgroup's listing.
 */
export function reportMissedJoin(cg: WorkerCgroup, pid: number | undefined, lacking: string[], listedByParentage: boolean): void {
  const lost: string[] = [];
  const caps = cg.caps;
  if (caps?.pidsDir && lacking.includes(caps.pidsDir)) lost.push(`its cap of ${caps.limits.maxProcesses} processes and threads does not hold`);
  if (caps && cg.memory && lacking.includes(cg.memory.dir)) {
    lost.push(`its memory limit of ${Math.round(caps.limits.memoryBytes / 2 ** 20)} MiB holds per process only (rlimit), not for its tree or its /tmp`);
  }
  if (listedByParentage) lost.push(`what a call leaves running is found among its descendants, not in the cgroup (outside bubblewrap a double-forked process escapes)`);
  const who = pid === undefined ? 'a code worker (pid unknown)' : `code worker ${pid}`;
  const sentence = `${who} started outside ${lacking.join(', ')} (joining failed): ${lost.join('; ') || 'its cgroup lists it elsewhere'}`;
  cgroupStatus().missed = `${new Date().toISOString()} ${sentence}`;
  if (!isMissWarned) {
    isMissWarned = true;
    console.warn(`stagecraft: ${sentence}. Said once; GET /api/health shows the latest. Check that this process may write cgroup.procs in those folders and that nothing removes them.`);
  }
}

/** The pids of every process in the worker's cgroup. */
export function tasksOf(cg: WorkerCgroup): number[] {
  const listing = listingOf(cg);
  return listing ? pidsIn(listing) : [];
}

/** the pids a listing names (one per line) */
export function pidsIn(listing: Buffer): number[] {
  return listing.toString('latin1').split('\n').filter(Boolean).map(Number);
}

let listingBuf = Buffer.alloc(4096);

/** bytes asked of each read of a listing: one page, what the kernel's seq_file fills per read at least */
export const LISTING_READ = 4096;
/** the longest line of a listing: a pid below PID_MAX_LIMIT (4194304, 7 digits) and its newline */
const MAX_LISTING_LINE = 8;

/**
 * The worker's cgroup.procs as it is now, as bytes (null when it cannot be read). On cgroup2, through
 * the descriptor kept open (`cg.kept`), read from offset 0; on v1 a fresh open every time: v1 keeps
 * the listing an open file first read for up to a second (cgroup_pidlist_start reuses it), so a kept
 * descriptor could miss a process forked since. Read into one reused buffer (no stat, no string): the
 * returned bytes are valid until the next call, and are copied by whoever keeps them.
 *
 * Usually one read, not two (the second only to be told "end of file"): cgroup.procs is a seq_file,
 * whose read fills the caller's buffer with whole lines until the list ends, the buffer holds
 * `want` bytes, or its own page (≥ 4096 bytes) cannot take the next line; it fails on no line (their
 * show is a plain printf). So a read of `want` ≤ a page that returns fewer than `want` - 8 bytes
 * stopped at the end: a next line (≤ 8 bytes) would have fit both. A regular file (the tests) ends
 * a short read at its end too. `want`: the bytes asked per read (the tests ask few, to take the
 * loop).
 */
export function listingOf(cg: WorkerCgroup, want = LISTING_READ): Buffer | null {
  if (cg.kept) return readListing(cg.kept.fd, want, 0);
  let fd: number;
  try {
    fd = openSync(cg.procsFile, 'r');
  } catch {
    return null;
  }
  try {
    return readListing(fd, want, null);
  } finally {
    closeSync(fd);
  }
}

/** `from`: 0 to read from the start with preads (a kept descriptor), null to read on from where the file is */
function readListing(fd: number, want: number, from: 0 | null): Buffer | null {
  try {
    let length = 0;
    for (;;) {
      if (length + want > listingBuf.length) listingBuf = Buffer.concat([listingBuf.subarray(0, length), Buffer.alloc(Math.max(listingBuf.length, want))]);
      const n = readSync(fd, listingBuf, length, want, from === null ? null : length);
      length += n;
      if (n === 0 || n < want - MAX_LISTING_LINE) return listingBuf.subarray(0, length);
    }
  } catch {
    return null;
  }
}

/** How many times the kernel OOM-killed a process of this cgroup for its memory limit (0 without a memory cgroup). */
export function oomKills(cg: WorkerCgroup | null): number {
  if (!cg?.memory) return 0;
  const file = cg.memory.version === 2 ? 'memory.events' : 'memory.oom_control';
  try {
    const m = /^oom_kill (\d+)$/m.exec(readFileSync(path.join(cg.memory.dir, file), 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** SIGKILLs every process of the cgroup but those in `keep`; how many it signalled. */
export function killTasks(cg: WorkerCgroup, keep: ReadonlySet<number> = new Set()): number {
  return killPids(tasksOf(cg).filter((pid) => !keep.has(pid)));
}

/** SIGKILLs each of `pids`; how many it signalled. */
export function killPids(pids: number[]): number {
  let killed = 0;
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
      killed++;
    } catch {
      // gone already
    }
  }
  return killed;
}

/** Kills what is left in a worker's cgroups and removes them (retrying while the killed tasks exit). */
export async function releaseWorkerCgroup(cg: WorkerCgroup): Promise<void> {
  dropKeptListing(cg);
  let left = [...cg.dirs];
  for (let attempt = 0; attempt < 50 && left.length; attempt++) {
    killTasks(cg);
    left = left.filter((dir) => !tryRemove(dir));
    if (left.length) await new Promise((r) => setTimeout(r, 20));
  }
}

/** Synchronous best effort, for `process.on('exit')`: kill what is left; the folders go at the next start. */
export function releaseWorkerCgroupNow(cg: WorkerCgroup): void {
  killTasks(cg);
  dropKeptListing(cg);
  for (const dir of cg.dirs) removeQuietly(dir);
}

/** Removes a cgroup folder; true when it is gone. */
function tryRemove(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

function removeQuietly(dir: string): void {
  tryRemove(dir); // a busy one is swept at the next start
}

/** The cgroups of servers that are gone (SIGKILLed before they cleaned up): what is in them is killed, they are removed. */
function sweepAbandoned(dir: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^stagecraft-(\d+)-([0-9a-f]+)-\d+$/.exec(name);
    if (!m || m[2] === TOKEN || isProcessAlive(Number(m[1]))) continue;
    const cg = path.join(dir, name);
    void releaseWorkerCgroup({ dirs: [cg], procsFile: path.join(cg, 'cgroup.procs'), memory: null }); // retried: a just-killed task keeps the folder busy a moment
  }
}
