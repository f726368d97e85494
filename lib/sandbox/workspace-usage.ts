/**
 * How much a run's workspace holds, against its quota of bytes and files, and
 * which `.git` folders are in it.
 *
 * Why measured, not enforced by the file system: a per-folder quota on Linux
 * needs root and a file system set up for it (XFS or ext4 project quotas) or a
 * loop-mounted image per run; neither is there on an ordinary machine. So the
 * workspace is measured — after each code step, every WORKSPACE_POLL_MS while
 * one runs, or less often where a walk takes long (workspace-guard.ts: a step
 * past the quota is killed then), and before each
 * `file/write` lands. A step can therefore write past the quota by what it
 * writes in one poll interval before it is stopped; it is then that step's
 * failure, and the run's on_error applies. (RLIMIT_FSIZE would cap single
 * files, but at the apparent size: a sparse file that takes no disk would be
 * refused, so it is not used.)
 *
 * Bytes are the space files take on disk (`st_blocks`, as `du` and disk quotas
 * count): a sparse file costs what it has written. Files are entries of every
 * kind (files, folders, links, FIFOs), as an inode quota counts them. The walk
 * never follows a link (confined-fs.ts), stops as soon as the quota is passed,
 * and refuses folders nested deeper than MAX_WALK_DEPTH.
 *
 * Owns: the quota's defaults and environment variables
 * (STAGECRAFT_WORKSPACE_MAX_BYTES, STAGECRAFT_WORKSPACE_MAX_FILES), the walk (and renaming the `.git`
 * entries its caller says are new, where it finds them),
 * and WorkspaceQuotaError. Does not: remember folder listings between walks (workspace-listings.ts), decide when to measure (sandbox.ts,
 * workspace-files.ts) or remove workspaces (workspace-retention.ts).
 */
import { randomBytes } from 'node:crypto';
import { setImmediate as turn } from 'node:timers/promises';
import { closeSync, fstatSync, lstatSync, opendirSync, openSync, renameSync, statSync, type BigIntStats, type Dir, type Stats } from 'node:fs';
import { SettingsError, StagecraftError } from '../kernel/errors';
import { MAX_KEPT_NAMES, type ListingMemory, type ListingWalk } from './workspace-listings';
import { closeDirs, DIR_FLAGS, isGitName, MAX_PATH_PARTS, MODE_KEEPS_US_OUT, openDirs, OWNER_READ_SEARCH, openRoot, restoreOwnerAccess, within, withinFd, type Dir as OpenDir } from './confined-fs';

export type WorkspaceQuota = { maxBytes: number; maxFiles: number };

export const DEFAULT_WORKSPACE_MAX_BYTES = 1024 ** 3;
export const DEFAULT_WORKSPACE_MAX_FILES = 10_000;
/** how often a running code step's workspace is measured */
export const WORKSPACE_POLL_MS = 250;
/** folders nested deeper than this are refused (each level holds a descriptor while the walk is below it) */
export const MAX_WALK_DEPTH = MAX_PATH_PARTS;

/** A step (or a file/write) took the workspace past its quota. */
export class WorkspaceQuotaError extends StagecraftError {
  constructor(what: string, details: Record<string, string | number>) {
    super(
      'workspace_quota_exceeded',
      `${what}. Write less, remove what is no longer needed, or raise the quota (STAGECRAFT_WORKSPACE_MAX_BYTES, STAGECRAFT_WORKSPACE_MAX_FILES).`,
      { httpStatus: 422, details },
    );
  }
}

/** The quota from the environment: bytes as an integer with an optional K, M or G (binary), files as an integer. */
export function workspaceQuotaFromEnv(env: Record<string, string | undefined>): WorkspaceQuota {
  return {
    maxBytes: sizeFromEnv(env, 'STAGECRAFT_WORKSPACE_MAX_BYTES', DEFAULT_WORKSPACE_MAX_BYTES),
    maxFiles: countFromEnv(env, 'STAGECRAFT_WORKSPACE_MAX_FILES', DEFAULT_WORKSPACE_MAX_FILES),
  };
}

const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** `name` from env as a size in bytes (`1073741824`, `512M`, `1G`), or `fallback` when unset. */
export function sizeFromEnv(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const m = /^(\d+)\s*([KMG]?)(?:i?B)?$/i.exec(raw.trim());
  const bytes = m ? Number(m[1]) * UNITS[m[2].toUpperCase()] : NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) throw new SettingsError(`${name}=${JSON.stringify(raw)}: give a size in bytes, such as 1073741824, 512M or 1G.`);
  return bytes;
}

/** `name` from env as a positive integer, or `fallback` when unset. */
export function countFromEnv(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw.trim());
  if (!Number.isSafeInteger(n) || n <= 0) throw new SettingsError(`${name}=${JSON.stringify(raw)}: give a whole number above 0.`);
  return n;
}

export type WorkspaceUsage = {
  bytes: number;
  files: number;
  /** relative paths of the `.git` entries found (a walk stopped at the quota may not have seen them all) */
  gitPaths: string[];
  /** the walk stopped here: past the quota, or nested too deep */
  isOver: boolean;
  tooDeep: boolean;
  /** the walk stopped at this folder, which the host may not open: its owner's read or search taken, and taken again after it gave them back */
  unreadable?: string;
  /** the `.git` entries the walk renamed (`disarm` said so), and what they were renamed to (null: they could not be) */
  disarmed: { made: string; renamed: string | null }[];
};

/** Whether a `.git` the walk met (at `rel`, as lstat saw it) is to be renamed aside (see disarmGit). */
export type DisarmGit = (rel: string, st: Stats) => boolean;

/**
 * Measures the workspace under `root`, stopping once past `quota`. The walk makes plain synchronous
 * calls (an lstat is a few µs; through the thread pool each would cost ten times that and wait in
 * line behind other I/O) in slices of WALK_SLICE calls, yielding to the event loop between slices:
 * none of them can wait (folders open non-blocking, nothing is read), so no slice holds the loop long.
 *
 * The top folder is read by its path (a host-made path, whose links are followed as opening it
 * would: the one place a walk follows one), its entries by `root/name` (the last part never
 * followed): code cannot move the top folder of its workspace (in the sandbox it is a mount
 * point), so nothing is gained by pinning it, and each entry costs half of what one through
 * /proc/self/fd does. Every folder below is opened link-free and read through its descriptor.
 */
export async function measureWorkspace(root: string, quota: WorkspaceQuota, disarm?: DisarmGit, memory?: ListingMemory): Promise<WorkspaceUsage> {
  const usage: WorkspaceUsage = { bytes: 0, files: 0, gitPaths: [], isOver: false, tooDeep: false, disarmed: [] };
  const listings = memory?.begin(root);
  await walk(null, root, '', 0, usage, quota, { calls: 0 }, disarm, listings);
  listings?.end();
  return usage;
}

/** syscalls between two yields to the event loop (~0.1–0.5 ms of work) */
const WALK_SLICE = 128;
/** entries read from a folder per system call */
const LISTING = { bufferSize: 128 };

/** `fd` null: the top folder, read by its path (a missing or unreadable one throws) */
async function walk(fd: number | null, dirPath: string, rel: string, depth: number, usage: WorkspaceUsage, quota: WorkspaceQuota, budget: { calls: number }, disarm?: DisarmGit, listings?: ListingWalk): Promise<void> {
  if (depth > MAX_WALK_DEPTH) {
    usage.isOver = usage.tooDeep = true;
    return;
  }
  const at = (name: string) => (fd === null ? `${dirPath}/${name}` : withinFd(fd, dirPath, name));
  // a folder unchanged since the last walk: its names as they were (workspace-listings.ts), no listing
  let folderSt: BigIntStats | null = null;
  const statAtMs = Date.now();
  if (listings) {
    try {
      folderSt = fd === null ? statSync(dirPath, { bigint: true }) : fstatSync(fd, { bigint: true });
    } catch (e) {
      if (fd === null) throw e;
      return; // removed while we looked: nothing to count
    }
  }
  // the top folder, its read or search taken by code (`chmod 000 .`): given back (restoreOwnerAccess)
  if (fd === null && MODE_KEEPS_US_OUT && folderSt && (folderSt.mode & BigInt(OWNER_READ_SEARCH)) !== BigInt(OWNER_READ_SEARCH) && restoreOwnerAccess(dirPath, true)) folderSt = statSync(dirPath, { bigint: true });
  const known = folderSt && listings!.names(rel, folderSt);
  // read entry by entry, never the whole listing: code can fill one folder with millions of names
  // between two measurements, and listing them all (readdir sorts them too) would hold the event
  // loop for seconds, while the quota is passed after its first maxFiles
  let listing: Dir | null = null;
  if (known) {
    // no listing to read
  } else if (fd === null) {
    try {
      listing = opendirSync(dirPath, LISTING);
    } catch (e) {
      if (!((e as NodeJS.ErrnoException).code === 'EACCES' && restoreOwnerAccess(dirPath, true))) throw e;
      listing = opendirSync(dirPath, LISTING);
    }
  } else {
    try {
      listing = opendirSync(withinFd(fd, dirPath, '.'), LISTING);
    } catch {
      return; // removed while we looked: nothing to count
    }
  }
  let i = 0;
  let names: string[] | null = folderSt && listing ? [] : null;
  const folders: string[] = [];
  let hasUndecodable = false;
  try {
    for (let name = nextName(listing, known, i++); name !== undefined; name = nextName(listing, known, i++)) {
      if (names && names.push(name) > MAX_KEPT_NAMES) names = null;
      if (++budget.calls >= WALK_SLICE) await nextSlice(budget);
      const st = lstatOrNull(at(name));
      if (!st) {
        // removed since the listing — or a name that is not UTF-8, which the listing gave with U+FFFD
        // in place of its bytes: no entry has that name, so it is counted from a listing of bytes below
        if (name.includes('\uFFFD')) hasUndecodable = true;
        continue;
      }
      count(usage, st);
      let isRenamed = false;
      if (isGitName(name)) {
        const p = rel ? `${rel}/${name}` : name;
        usage.gitPaths.push(p);
        // renamed here, in the folder the walk holds open: one rename, however deep (by its path from
        // the top, each would cost an open per folder on the way, on the main thread)
        if (disarm?.(p, st)) {
          const to = renameAside((n) => at(n), name);
          usage.disarmed.push({ made: p, renamed: to && (rel ? `${rel}/${to}` : to) });
          isRenamed = to !== null;
        }
      }
      if (!isRenamed && st.isDirectory()) folders.push(openable(st, name, at));
      if (isPast(usage, quota)) return;
    }
  } finally {
    listing?.closeSync();
  }
  if (names) listings!.keep(rel, folderSt!, statAtMs, names); // read to its end
  const undecodable = hasUndecodable ? await countUndecodable(fd, dirPath, usage, quota, budget) : [];
  if (usage.isOver) return;
  for (const name of undecodable.length ? [...folders, ...undecodable] : folders) {
    if (++budget.calls >= WALK_SLICE) await nextSlice(budget);
    let child: number;
    const shown = typeof name === 'string' ? name : name.toString();
    try {
      child = openSync(typeof name === 'string' ? at(name) : rawWithin(fd, dirPath, name), DIR_FLAGS);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EACCES') continue; // replaced by a link or removed since the listing: never followed, nothing to count
      // code took the folder's access again right after the walk gave it back: what it holds cannot be
      // measured, and a folder that is never counted is a way past the quota
      usage.isOver = true;
      usage.unreadable = rel ? `${rel}/${shown}` : shown;
      return;
    }
    try {
      await walk(child, `${dirPath}/${shown}`, rel ? `${rel}/${shown}` : shown, depth + 1, usage, quota, budget, disarm, listings);
    } finally {
      closeSync(child);
    }
    if (usage.isOver) return;
  }
}

/**
 * The entries of a folder whose names are not UTF-8 (code makes them with bytes: `open(b"\\xff", "w")`):
 * the walk's listing decodes names, and one that is not UTF-8 comes out with U+FFFD in place of its
 * bytes, a name no lstat finds — so they are listed again here, as bytes, and counted (before, a step
 * wrote past its quota without end under such names). Their folders are returned, to be walked below.
 */
async function countUndecodable(fd: number | null, dirPath: string, usage: WorkspaceUsage, quota: WorkspaceQuota, budget: { calls: number }): Promise<Buffer[]> {
  const folders: Buffer[] = [];
  // a listing of bytes: Node's types know only text encodings for opendir, its code takes 'buffer' too
  type RawDir = { readSync(): { name: Buffer } | null; closeSync(): void };
  let listing: RawDir;
  try {
    listing = opendirSync(fd === null ? dirPath : withinFd(fd, dirPath, '.'), { ...LISTING, encoding: 'buffer' as BufferEncoding }) as unknown as RawDir;
  } catch {
    return folders; // removed while we looked: nothing to count
  }
  try {
    for (let entry = listing.readSync(); entry; entry = listing.readSync()) {
      const raw = entry.name;
      if (Buffer.from(raw.toString()).equals(raw)) continue; // UTF-8: counted by the walk's own listing
      if (++budget.calls >= WALK_SLICE) await nextSlice(budget);
      const st = lstatOrNull(rawWithin(fd, dirPath, raw));
      if (!st) continue; // removed since the listing
      count(usage, st);
      if (st.isDirectory()) folders.push(openable(st, raw, (n) => rawWithin(fd, dirPath, n)));
      if (isPast(usage, quota)) break;
    }
  } finally {
    listing.closeSync();
  }
  return folders;
}

/** One entry, as lstat saw it, counted against the quota: it takes one file, and its blocks on disk. */
function count(usage: WorkspaceUsage, st: Stats): void {
  usage.files++;
  usage.bytes += st.blocks * 512;
}

/** Whether the walk has passed the quota (then marked so: it stops there). */
function isPast(usage: WorkspaceUsage, quota: WorkspaceQuota): boolean {
  if (usage.files > quota.maxFiles || usage.bytes > quota.maxBytes) usage.isOver = true;
  return usage.isOver;
}

/**
 * A folder the walk is to go into (`name`, as lstat saw it, its path by `at`), made openable: one code
 * took its owner's read or search from (`chmod 000 big`) would hide everything in it from the walk (its
 * open refused, passed over as removed), so its owner's access is given back first.
 */
function openable<N extends string | Buffer>(st: Stats, name: N, at: (n: N) => string | Buffer): N {
  if (MODE_KEEPS_US_OUT && (st.mode & OWNER_READ_SEARCH) !== OWNER_READ_SEARCH) restoreOwnerAccess(at(name), false);
  return name;
}

/** `raw` (a name as bytes) inside the folder the walk holds (`fd`, or the top folder at `dirPath`), as `at` names one. */
function rawWithin(fd: number | null, dirPath: string, raw: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${fd === null ? dirPath : withinFd(fd, dirPath, '.')}/`), raw]);
}

/** The next name of a folder: from its listing, or (none read) from what the last walk read, `known` */
function nextName(listing: Dir | null, known: string[] | null, i: number): string | undefined {
  return listing ? listing.readSync()?.name : known![i];
}

/** Yields to the event loop between two slices of the walk (awaited only then: an await per entry costs more than its lstat saves us). */
function nextSlice(budget: { calls: number }): Promise<void> {
  budget.calls = 0;
  return turn();
}

function lstatOrNull(p: string | Buffer) {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/** What a usage says against its quota, as an error (null when within it); `limits`: what the walk stopped at, when less than the quota. */
export function quotaError(usage: WorkspaceUsage, quota: WorkspaceQuota, who: string, limits: WorkspaceQuota = quota): WorkspaceQuotaError | null {
  if (!usage.isOver) return null;
  const details = { bytes: usage.bytes, files: usage.files, maxBytes: quota.maxBytes, maxFiles: quota.maxFiles };
  if (usage.tooDeep) return new WorkspaceQuotaError(`${who} nested folders more than ${MAX_WALK_DEPTH} levels deep in the run's workspace`, details);
  if (usage.unreadable !== undefined) {
    return new WorkspaceQuotaError(`${who} kept the folder ${usage.unreadable} of the run's workspace unreadable (its owner's read or search permission taken), so what it holds cannot be measured`, details);
  }
  const what =
    usage.files > limits.maxFiles
      ? `more than ${quota.maxFiles} files and folders (counted ${usage.files} before stopping)`
      : `more than ${quota.maxBytes} bytes on disk (counted ${usage.bytes} before stopping)`;
  return new WorkspaceQuotaError(`${who}: the run's workspace is past its quota, holding ${what}`, details);
}

/** how long a measurement stands for the host's own writes (each write adds what it wrote) */
export const WRITE_REMEASURE_MS = 1_000;
const BLOCK = 4096;

/**
 * The quota as the host's file/write sees it. Measuring the whole workspace before every write would
 * make a run writing many files pay for each of them again; so a measurement stands for
 * WRITE_REMEASURE_MS, each write adding what it writes (rounded up to whole blocks, as a new file),
 * and the workspace is measured again once that estimate would pass the quota, or has aged. What the
 * run's code writes in between is the code step's to answer for (workspace-guard.ts).
 */
export class WriteQuota {
  private measured: { bytes: number; files: number; at: number } | null = null;
  private added = { bytes: 0, files: 0 };

  constructor(
    private readonly root: string,
    private readonly quota: WorkspaceQuota,
  ) {}

  /** Throws WorkspaceQuotaError when writing `bytes` more (in a new file when `isNew`) would take the workspace past its quota. */
  async check(op: string, rel: string, bytes: number, isNew: boolean): Promise<void> {
    const adding = { bytes: Math.ceil(bytes / BLOCK) * BLOCK, files: isNew ? 1 : 0 };
    const now = Date.now();
    const m = this.measured;
    if (m && now - m.at < WRITE_REMEASURE_MS) {
      const fits = m.bytes + this.added.bytes + adding.bytes <= this.quota.maxBytes && m.files + this.added.files + adding.files <= this.quota.maxFiles;
      if (fits) {
        this.added.bytes += adding.bytes;
        this.added.files += adding.files;
        return;
      }
    }
    const room = { maxBytes: this.quota.maxBytes - adding.bytes, maxFiles: this.quota.maxFiles - adding.files };
    const usage = room.maxBytes < 0 || room.maxFiles < 0 ? { bytes: 0, files: 0, gitPaths: [], isOver: true, tooDeep: false, disarmed: [] } : await measureWorkspace(this.root, room);
    const error = quotaError(usage, this.quota, `${op} ${rel} (${bytes} bytes)`, room);
    if (error) throw error;
    this.measured = { bytes: usage.bytes, files: usage.files, at: now };
    this.added = adding;
  }
}

/**
 * Renames a `.git` that code made (at `rel`, relative to `root`) to `.git.refused-<hex>`, so no git
 * command run there later takes it for a repository and runs its hooks. The folder above it is
 * opened link-free, and rename moves the entry itself: nothing is followed or deleted.
 */
export async function disarmGit(root: string, rel: string): Promise<string | null> {
  const parts = rel.split('/');
  let top: OpenDir | null = null;
  let dir: OpenDir | null = null;
  try {
    top = openRoot(root);
    dir = openDirs('workspace', top, parts.slice(0, -1), rel, false);
    if (!dir) return null;
    const d = dir;
    const to = renameAside((n) => within(d, n), parts[parts.length - 1]);
    return to && [...parts.slice(0, -1), to].join('/');
  } catch {
    return null;
  } finally {
    if (top) closeDirs(top, dir);
  }
}

/** Renames `name` (its path in an open folder by `at`) to `name.refused-<hex>`; the new name, or null when it could not be. */
function renameAside(at: (name: string) => string, name: string): string | null {
  const to = `${name}.refused-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(at(name), at(to));
    return to;
  } catch {
    return null;
  }
}
