/**
 * The embedded store's data-dir lock: one process at a time per data dir.
 * PGlite has no inter-process locking of its own; two processes on one dir
 * each see their own diverging copy of the data.
 *
 * Owns: `<dataDir>/store.lock`, a JSON file naming its owner (pid, host,
 * process start time, command). It is created complete and atomically (written
 * to a temp file, then hard-linked into place, which fails if the lock
 * exists). A lock whose owner is gone — same host, and its pid is dead (a zombie too) or now
 * belongs to a process that started at another time — is stale and is taken
 * over; the takeover itself is serialised by a second lock file, so two
 * processes finding the same stale lock cannot both win. So is a lock copied
 * with the dir (`cp -a` of a dir a live process holds): it names the dir it
 * was taken in, by real path and inode, and neither is this one's.
 *
 * Does not: lock across hosts (a lock written on another host is always
 * treated as held), or survive SIGKILL cleanly (the lock is left behind and
 * found stale by the next process).
 */
import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, realpathSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StoreUnavailableError } from '../kernel/errors';

export type LockOwner = {
  pid: number;
  host: string;
  /** when the owning process started, epoch ms */
  startedAt: number;
  /** when it took the lock, epoch ms */
  lockedAt: number;
  command: string;
  /** tells this lock from an earlier one of the same pid */
  token: string;
  /** the data dir it locks, as its owner found it (its real path, and `dev:ino`): a lock copied with the dir is told by both */
  dir?: string;
  dirId?: string;
};

export type DataDirLock = { lockPath: string; owner: LockOwner; release(): void };

export const LOCK_FILE = 'store.lock';
/** process start times read from /proc are good to about a second */
const START_TIME_TOLERANCE_MS = 2_000;

export function acquireDataDirLock(dataDir: string): DataDirLock {
  const lockPath = path.join(dataDir, LOCK_FILE);
  const me: LockOwner = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: processStartedAt(process.pid) ?? Math.round(Date.now() - process.uptime() * 1000),
    lockedAt: Date.now(),
    command: process.argv.slice(1).join(' ').slice(0, 300),
    token: randomUUID(),
    ...dirIdentity(dataDir),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (linkNew(lockPath, me)) return held(lockPath, me);
    const holder = readOwner(lockPath);
    if (holder === 'gone') continue; // released between our link and our read
    if (holder === 'unreadable' || (!isStale(holder) && !isCopied(holder, dataDir))) throw lockedError(dataDir, lockPath, holder);
    takeOver(lockPath, holder, me);
  }
  throw lockedError(dataDir, lockPath, readOwner(lockPath));
}

function held(lockPath: string, me: LockOwner): DataDirLock {
  const releaseSync = () => {
    const now = readOwner(lockPath);
    if (typeof now === 'object' && now.token === me.token) unlinkQuiet(lockPath);
  };
  process.on('exit', releaseSync);
  let released = false;
  return {
    lockPath,
    owner: me,
    release() {
      if (released) return;
      released = true;
      process.off('exit', releaseSync);
      releaseSync();
    },
  };
}

/** Creates `target` holding `owner`, complete, only if it does not exist. */
function linkNew(target: string, owner: LockOwner): boolean {
  const tmp = `${target}.${owner.pid}.${owner.token}.tmp`;
  try {
    // a write that fails part way (a full disk) leaves no temp file behind either
    writeFileSync(tmp, `${JSON.stringify(owner, null, 2)}\n`);
    linkSync(tmp, target);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    unlinkQuiet(tmp);
  }
}

function takeOver(lockPath: string, stale: LockOwner, me: LockOwner) {
  const guard = `${lockPath}.takeover`;
  if (!linkNew(guard, me)) {
    const other = readOwner(guard);
    // a takeover guard left by a process that died mid-takeover is itself stale
    if (typeof other === 'object' && isStale(other)) unlinkQuiet(guard);
    return; // the caller tries again
  }
  try {
    const now = readOwner(lockPath);
    if (typeof now === 'object' && now.token === stale.token) unlinkQuiet(lockPath);
  } finally {
    unlinkQuiet(guard);
  }
}

function readOwner(file: string): LockOwner | 'gone' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'unreadable';
  }
  try {
    const o = JSON.parse(text) as LockOwner;
    return typeof o.pid === 'number' && typeof o.host === 'string' ? o : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** the data dir's real path and `dev:ino`, as a lock records them; nothing when it cannot be read */
function dirIdentity(dataDir: string): { dir?: string; dirId?: string } {
  try {
    const st = statSync(dataDir);
    return { dir: realpathSync(dataDir), dirId: `${st.dev}:${st.ino}` };
  } catch {
    return {};
  }
}

/**
 * Whether the lock was copied here with the data dir (`cp -a` of a dir a live process holds): it names
 * another dir, by path and by inode both — a dir moved while held keeps its inode, one reached by
 * another path (a link, a bind mount) its device and inode, and both stay held. A copy's lock holds
 * nothing: its owner has the original open, not this one. A lock that records no dir (written before
 * they were recorded) is never taken for a copy.
 */
function isCopied(owner: LockOwner, dataDir: string): boolean {
  if (!owner.dir || !owner.dirId || owner.host !== os.hostname()) return false;
  const here = dirIdentity(dataDir);
  return !!here.dir && here.dir !== owner.dir && here.dirId !== owner.dirId;
}

export function isStale(owner: LockOwner): boolean {
  if (owner.host !== os.hostname()) return false; // cannot see that host's processes
  if (!isAlive(owner.pid)) return true;
  const started = processStartedAt(owner.pid);
  // the pid is alive but belongs to a process started at another time: reused
  return started !== null && Math.abs(started - owner.startedAt) > START_TIME_TOLERANCE_MS;
}

/**
 * Whether a process of this pid is there (on this host) and can still hold the store. A zombie — dead,
 * its exit not yet collected by a parent that may never collect it (a container's PID 1 that is no init)
 * — answers kill(pid, 0) but holds nothing: it is not alive (Linux's /proc says so; elsewhere it counts).
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
  return !isZombie(pid);
}

/** a zombie through and through: its main thread's state Z (or X), and no other thread of it still running */
function isZombie(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const state = /^State:\s+(\S)/m.exec(status)?.[1];
    const threads = Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? '1');
    return (state === 'Z' || state === 'X') && threads <= 1;
  } catch {
    return false;
  }
}

let bootTimeMs: number | null | undefined;

/** Start time of a process from /proc (Linux), epoch ms; null where /proc is not there. */
export function processStartedAt(pid: number): number | null {
  try {
    if (bootTimeMs === undefined) {
      const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
      bootTimeMs = btime ? Number(btime[1]) * 1000 : null;
    }
    if (bootTimeMs === null) return null;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may contain spaces and parentheses: count from the last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = Number(fields[19]); // field 22 overall
    const CLOCK_TICKS_PER_S = 100; // sysconf(_SC_CLK_TCK) on every mainstream Linux
    return Number.isFinite(startTicks) ? bootTimeMs + (startTicks * 1000) / CLOCK_TICKS_PER_S : null;
  } catch {
    return null;
  }
}

function lockedError(dataDir: string, lockPath: string, holder: LockOwner | 'gone' | 'unreadable') {
  const base = `The embedded store in ${dataDir} is in use`;
  const what =
    typeof holder === 'object'
      ? holder.pid === process.pid && holder.host === os.hostname()
        ? ' by this process already (open it once and share it, e.g. with getStore())'
        : ` by another process: pid ${holder.pid}${holder.host !== os.hostname() ? ` on host ${holder.host}` : ''}` +
          `, started ${new Date(holder.startedAt).toISOString()}, command "${holder.command}"`
      : ` (its lock file ${lockPath} cannot be read)`;
  const todo =
    '. Two processes must never open one embedded database. Stop that process, or give this one its own ' +
    'data directory with STAGECRAFT_DATA_DIR, or point both at a Postgres server with DATABASE_URL' +
    (typeof holder === 'object' && holder.host !== os.hostname()
      ? `. If nothing runs on ${holder.host} any more, delete ${lockPath}.`
      : '.');
  return new StoreUnavailableError('store_locked', base + what + todo, {
    dataDir,
    lockPath,
    ...(typeof holder === 'object' ? { pid: holder.pid, host: holder.host, command: holder.command } : {}),
  });
}

function unlinkQuiet(file: string) {
  try {
    unlinkSync(file);
  } catch {
    /* already gone */
  }
}
