/**
 * A cap on how many processes and threads one code worker may have at once: a
 * pids cgroup per worker, joined by the worker's launcher before it execs, so
 * everything the code forks is counted. A fork bomb hits the cap (fork fails
 * with EAGAIN inside the step) and the host keeps its process table. When a
 * worker exits, whatever is left in its cgroup is killed and the cgroup
 * removed — which also reaps detached children of an unsandboxed worker.
 *
 * Owns: finding where this process may make child pids cgroups (inside its
 * own cgroup, under cgroup v1's `/sys/fs/cgroup/pids` or a cgroup2 mount with
 * the pids controller delegated), the per-worker cgroups
 * (`stagecraft-<server pid>-<token>-<n>`), their cleanup, and sweeping those
 * of servers that are gone. Does not: spawn workers
 * (worker.ts) or isolate them (isolation.ts). Where no such hierarchy is
 * writable (not root, a container without cgroup delegation) workers run
 * without the cap, and `pidsLimitStatus()` says why.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from './processes';

/** processes + threads per worker: far above what a step's interpreter needs (node ~12, esbuild ~20) */
export const DEFAULT_MAX_PROCESSES = 256;

const PREFIX = 'stagecraft-';
/** names this process's cgroups apart from another server's with the same pid (another pid namespace) */
const TOKEN = randomBytes(4).toString('hex');

/**
 * Where to look: this process's own pids cgroup (from /proc/self/cgroup), under the v1 pids mount or
 * the cgroup2 mount — never the root, so workers stay inside the server's own limits and service.
 */
function candidates(): string[] {
  let lines: string[] = [];
  try {
    lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of lines) {
    const [, controllers, own] = line.split(':');
    if (own === undefined) continue;
    if (controllers.split(',').includes('pids')) out.push(path.join('/sys/fs/cgroup/pids', own));
    if (controllers === '') out.push(path.join('/sys/fs/cgroup', own), path.join('/sys/fs/cgroup/unified', own));
  }
  return out;
}

let base: { dir: string | null; reason: string } | null = null;
let counter = 0;

/** Where per-worker pids cgroups are made here, probed once (and abandoned ones swept then). */
export function pidsLimitStatus(): { dir: string | null; reason: string } {
  if (base) return base;
  for (const dir of candidates()) {
    const probe = path.join(dir, `${PREFIX}probe-${process.pid}`);
    try {
      mkdirSync(probe);
    } catch {
      continue;
    }
    try {
      // a cgroup folder has its controller's files the moment it is made; a plain folder (tmpfs) does not
      if (!existsSync(path.join(probe, 'pids.max'))) continue;
      writeFileSync(path.join(probe, 'pids.max'), '1');
      base = { dir, reason: '' };
      sweepAbandoned(dir);
      return base;
    } catch {
      continue;
    } finally {
      try {
        rmdirSync(probe);
      } catch {
        // a tmpfs folder or a cgroup: either is removed by rmdir; nothing else to do
      }
    }
  }
  return (base = { dir: null, reason: 'no writable pids cgroup (cgroup v1 pids or cgroup2 with the pids controller) in /sys/fs/cgroup' });
}

/** A fresh cgroup for one worker, capped at `max` tasks; null where none can be made. */
export function createPidsCgroup(max: number): string | null {
  const { dir } = pidsLimitStatus();
  if (!dir) return null;
  const cg = path.join(dir, `${PREFIX}${process.pid}-${TOKEN}-${++counter}`);
  try {
    mkdirSync(cg);
    writeFileSync(path.join(cg, 'pids.max'), String(max));
    return cg;
  } catch {
    try {
      rmdirSync(cg);
    } catch {
      // never made
    }
    return null;
  }
}

/**
 * The launch of `command args` inside cgroup `cg`: a shell that moves itself into the cgroup, then
 * execs (so the worker and all it forks are counted). Joining is best effort: a worker still starts.
 */
export function inPidsCgroup(cg: string, command: string, args: string[]): { command: string; args: string[] } {
  return { command: '/bin/sh', args: ['-c', '{ echo $$ > "$0/cgroup.procs"; } 2>/dev/null; exec "$@"', cg, command, ...args] };
}

function tasksOf(cg: string): number[] {
  try {
    return readFileSync(path.join(cg, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function killAll(cg: string): void {
  for (const pid of tasksOf(cg)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** Kills what is left in a worker's cgroup and removes it (retrying while the killed tasks exit). */
export async function releasePidsCgroup(cg: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    killAll(cg);
    try {
      rmdirSync(cg);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Synchronous best effort, for `process.on('exit')`: kill what is left; the folder goes at the next start. */
export function releasePidsCgroupNow(cg: string): void {
  killAll(cg);
  try {
    rmdirSync(cg);
  } catch {
    // swept at the next start
  }
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
    void releasePidsCgroup(path.join(dir, name)); // retried: a just-killed task keeps the folder busy a moment
  }
}
