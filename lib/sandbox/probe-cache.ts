/**
 * The isolation probe's verdict, kept on disk (`<data dir>/sandbox-probe.json`) so that a process
 * starting on this machine does not run bubblewrap twice before its first step: the probe costs two
 * bwrap launches (~250 ms quiet, over a second under load), on the critical path of every CLI run,
 * every resume after a crash and every server start.
 *
 * A verdict holds only for what it was measured on, so it is filed under a key made of everything
 * the probe's outcome depends on: the bwrap binary (path, device, inode, size, mtime, mode, owner),
 * the kernel (release and build), the settings that allow unprivileged user namespaces, this user,
 * the architecture and the seccomp filter's bytes. Any of them changing (bubblewrap upgraded, a new
 * kernel booted, a sysctl turned off, a new release's filter) is a miss, and the probe runs again.
 *
 * Only the full verdict is kept — bubblewrap works here *with* the filter. A machine where it does
 * not (no namespaces, the filter refused) probes each time: a cache, stale or forged by whoever can
 * write the data dir, can then never make code run with less isolation than a fresh probe would give;
 * at worst a worker fails to start, with bwrap's own error.
 *
 * Owns: the key and the file. Does not: probe (isolation.ts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const PROBE_CACHE_FILE = 'sandbox-probe.json';
const FORMAT = 1;

/** the kernel settings that decide whether an unprivileged process may make user namespaces (Debian, Ubuntu, upstream) */
const USERNS_SETTINGS = ['/proc/sys/kernel/unprivileged_userns_clone', '/proc/sys/kernel/apparmor_restrict_unprivileged_userns', '/proc/sys/user/max_user_namespaces'];

function readSetting(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** What the probe's outcome depends on, hashed; null when the binary cannot be looked at (then nothing is cached). */
export function probeKey(bwrap: string, filter: Buffer | null): string | null {
  let st;
  try {
    st = statSync(bwrap);
  } catch {
    return null;
  }
  const parts = {
    format: FORMAT,
    bwrap: [bwrap, st.dev, st.ino, st.size, st.mtimeMs, st.ctimeMs, st.mode, st.uid],
    kernel: [os.release(), os.version()],
    userns: USERNS_SETTINGS.map(readSetting),
    uid: process.getuid?.() ?? null,
    arch: process.arch,
    filter: filter ? createHash('sha256').update(filter).digest('hex') : null,
  };
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Whether `dir` holds the verdict "bubblewrap works here with the filter" for this key. */
export function hasCachedVerdict(dir: string, key: string): boolean {
  try {
    const v = JSON.parse(readFileSync(path.join(dir, PROBE_CACHE_FILE), 'utf8')) as { key?: unknown; isolated?: unknown };
    return v.key === key && v.isolated === true;
  } catch {
    return false;
  }
}

/** Records that bubblewrap works here with the filter (best effort: a read-only data dir only means probing next time). */
export function cacheVerdict(dir: string, key: string): void {
  const file = path.join(dir, PROBE_CACHE_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, `${JSON.stringify({ key, isolated: true, at: new Date().toISOString() })}\n`);
    renameSync(tmp, file);
  } catch {
    // not writable: the next process probes again
  }
}
