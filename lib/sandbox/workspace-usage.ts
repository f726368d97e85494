/**
 * How much a run's workspace holds, against its quota of bytes and files, and
 * which `.git` folders are in it.
 *
 * Why measured, not enforced by the file system: a per-folder quota on Linux
 * needs root and a file system set up for it (XFS or ext4 project quotas) or a
 * loop-mounted image per run; neither is there on an ordinary machine. So the
 * workspace is measured — after each code step, every WORKSPACE_POLL_MS while
 * one runs (a step past the quota is killed then), and before each
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
 * (STAGECRAFT_WORKSPACE_MAX_BYTES, STAGECRAFT_WORKSPACE_MAX_FILES), the walk,
 * and WorkspaceQuotaError. Does not: decide when to measure (sandbox.ts,
 * workspace-files.ts) or remove workspaces (workspace-retention.ts).
 */
import { randomBytes } from 'node:crypto';
import { lstat, open, readdir, rename } from 'node:fs/promises';
import { StagecraftError, UsageError } from '../kernel/errors';
import { DIR_FLAGS, isGitName, openDirs, openRoot, within, type Dir } from './confined-fs';

export type WorkspaceQuota = { maxBytes: number; maxFiles: number };

export const DEFAULT_WORKSPACE_MAX_BYTES = 1024 ** 3;
export const DEFAULT_WORKSPACE_MAX_FILES = 10_000;
/** how often a running code step's workspace is measured */
export const WORKSPACE_POLL_MS = 250;
/** folders nested deeper than this are refused (each level holds a descriptor while the walk is below it) */
export const MAX_WALK_DEPTH = 128;

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
  if (!Number.isSafeInteger(bytes) || bytes <= 0) throw new UsageError(`${name}=${JSON.stringify(raw)}: give a size in bytes, such as 1073741824, 512M or 1G.`);
  return bytes;
}

/** `name` from env as a positive integer, or `fallback` when unset. */
export function countFromEnv(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw.trim());
  if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${name}=${JSON.stringify(raw)}: give a whole number above 0.`);
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
};

/** Measures the workspace under `root`, stopping once past `quota`. */
export async function measureWorkspace(root: string, quota: WorkspaceQuota): Promise<WorkspaceUsage> {
  const usage: WorkspaceUsage = { bytes: 0, files: 0, gitPaths: [], isOver: false, tooDeep: false };
  const top = await openRoot(root);
  try {
    await walk(top, '', 0, usage, quota);
  } finally {
    await top.handle.close();
  }
  return usage;
}

async function walk(dir: Dir, rel: string, depth: number, usage: WorkspaceUsage, quota: WorkspaceQuota): Promise<void> {
  if (depth > MAX_WALK_DEPTH) {
    usage.isOver = usage.tooDeep = true;
    return;
  }
  let names: string[];
  try {
    names = await readdir(within(dir, '.'));
  } catch {
    return; // removed while we looked: nothing to count
  }
  const stats = await Promise.all(names.map((n) => lstat(within(dir, n)).catch(() => null)));
  const folders: string[] = [];
  names.forEach((name, i) => {
    const st = stats[i];
    if (!st) return;
    usage.files++;
    usage.bytes += st.blocks * 512;
    if (isGitName(name)) usage.gitPaths.push(rel ? `${rel}/${name}` : name);
    if (st.isDirectory()) folders.push(name);
  });
  if (usage.files > quota.maxFiles || usage.bytes > quota.maxBytes) {
    usage.isOver = true;
    return;
  }
  for (const name of folders) {
    let handle;
    try {
      handle = await open(within(dir, name), DIR_FLAGS);
    } catch {
      continue; // replaced by a link or removed since the listing: never followed, nothing to count
    }
    try {
      await walk({ handle, path: `${dir.path}/${name}`, shown: name }, rel ? `${rel}/${name}` : name, depth + 1, usage, quota);
    } finally {
      await handle.close();
    }
    if (usage.isOver) return;
  }
}

/** What a usage says against its quota, as an error (null when within it). */
export function quotaError(usage: WorkspaceUsage, quota: WorkspaceQuota, who: string): WorkspaceQuotaError | null {
  if (!usage.isOver) return null;
  const details = { bytes: usage.bytes, files: usage.files, maxBytes: quota.maxBytes, maxFiles: quota.maxFiles };
  if (usage.tooDeep) return new WorkspaceQuotaError(`${who} nested folders more than ${MAX_WALK_DEPTH} levels deep in the run's workspace`, details);
  const what =
    usage.files > quota.maxFiles
      ? `more than ${quota.maxFiles} files and folders (counted ${usage.files} before stopping)`
      : `more than ${quota.maxBytes} bytes on disk (counted ${usage.bytes} before stopping)`;
  return new WorkspaceQuotaError(`${who}: the run's workspace is past its quota, holding ${what}`, details);
}

/** Throws WorkspaceQuotaError when the workspace, with `adding` more, would be past its quota. */
export async function checkWorkspaceQuota(
  root: string,
  quota: WorkspaceQuota,
  what: { op: string; path: string; adding: { bytes: number; entries: number } },
): Promise<void> {
  const room = { maxBytes: quota.maxBytes - what.adding.bytes, maxFiles: quota.maxFiles - what.adding.entries };
  const usage = room.maxBytes < 0 || room.maxFiles < 0 ? { bytes: 0, files: 0, gitPaths: [], isOver: true, tooDeep: false } : await measureWorkspace(root, room);
  const error = quotaError(usage, quota, `${what.op} ${what.path} (${what.adding.bytes} bytes)`);
  if (error) throw error;
}

/**
 * Renames a `.git` that code made (at `rel`, relative to `root`) to `.git.refused-<hex>`, so no git
 * command run there later takes it for a repository and runs its hooks. The folder above it is
 * opened link-free, and rename moves the entry itself: nothing is followed or deleted.
 */
export async function disarmGit(root: string, rel: string): Promise<string | null> {
  const parts = rel.split('/');
  const top = await openRoot(root);
  let dir: Dir | null = null;
  try {
    dir = await openDirs('workspace', top, parts.slice(0, -1), rel, false);
    if (!dir) return null;
    const to = `${parts[parts.length - 1]}.refused-${randomBytes(4).toString('hex')}`;
    await rename(within(dir, parts[parts.length - 1]), within(dir, to));
    return [...parts.slice(0, -1), to].join('/');
  } catch {
    return null;
  } finally {
    if (dir && dir !== top) await dir.handle.close();
    await top.handle.close();
  }
}
