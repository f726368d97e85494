/**
 * `file/read` and `file/write` as the host does them for a run: on the run's
 * workspace (and, for reads, the bundle's own files), which the run's code can
 * change at any moment — so nothing here follows what code made.
 *
 * Why on the host rather than inside the run's sandbox: a file op is a tool
 * call of the model, and most runs that use one have no code step, so doing
 * it in a worker would start an interpreter (and hold a worker slot) per run
 * for a 100 µs read; and with STAGECRAFT_SANDBOX=off there is no sandbox to do
 * it in, while the workspace is just as hostile. So the host does it, the way
 * a careful kernel API would (confined-fs.ts): every component opened below
 * the one before it, never through a link; the file opened non-blocking and
 * then checked on its descriptor — a regular file, and its size within the
 * limit *before* a byte is read (a 1.9 GB sparse file is refused, not read);
 * a write goes to a new temporary file (O_CREAT|O_EXCL|O_NOFOLLOW) in the same
 * folder, renamed over the name at the end, so a link planted at the name is
 * replaced, never written through. A FIFO, a socket or a device is refused at
 * once. Every op runs under a time limit (FILE_OP_TIMEOUT_MS): with
 * non-blocking opens and regular files only nothing here should wait, and if
 * the disk itself stalls the step fails instead of waiting for it.
 *
 * Owns: the `WorkspaceFiles` port (lib/kernel/ports.ts). Does not: check the
 * op's permission (the kernel gates first) or record anything (a file write is
 * the step's result; the kernel records it).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, openSync, read, renameSync, unlinkSync, write } from 'node:fs';
import { promisify } from 'node:util';
import { StepFailedError } from '../kernel/errors';
import type { WorkspaceFiles } from '../kernel/ports';
import { closeDirs, CREATE_FLAGS, notRegular, openDirs, openRoot, pathParts, READ_FLAGS, refuse, within, type Dir } from './confined-fs';
import { WriteQuota, type WorkspaceQuota } from './workspace-usage';

/** the most `file/read` returns */
export const FILE_READ_MAX_BYTES = 1_000_000;
/** how long one file op may take before its step fails */
export const FILE_OP_TIMEOUT_MS = 10_000;

export type WorkspaceFilesOptions = {
  /** the run's workspace: file/write writes here, file/read reads here first */
  root: string;
  /** read-only fallback for file/read (the bundle's own files) when the workspace has no file at the path */
  readFallback?: string;
  /** the workspace's quota, checked before a write lands; none for a folder the user named */
  quota?: WorkspaceQuota | null;
  timeoutMs?: number;
};

export function createWorkspaceFiles(opts: WorkspaceFilesOptions): WorkspaceFiles {
  const timeoutMs = opts.timeoutMs ?? FILE_OP_TIMEOUT_MS;
  const quota = opts.quota ? new WriteQuota(opts.root, opts.quota) : null;
  return {
    read: (rel) => withTimeLimit('file/read', rel, timeoutMs, () => readText(opts, rel)),
    write: (rel, content) => withTimeLimit('file/write', rel, timeoutMs, () => writeText(opts.root, quota, rel, content)),
  };
}

async function readText(opts: WorkspaceFilesOptions, rel: string): Promise<string> {
  const parts = pathParts('file/read', rel);
  const found = (await readFrom(opts.root, parts, rel)) ?? (opts.readFallback ? await readFrom(opts.readFallback, parts, rel) : null);
  if (found === null) throw new StepFailedError('op_failed', `file/read: cannot read ${rel}: no such file`, { op: 'file/read', path: rel });
  return found;
}

/** The file's text, or null when some part of the path does not exist under `root`. */
async function readFrom(root: string, parts: string[], rel: string): Promise<string | null> {
  const op = 'file/read';
  let top: Dir;
  try {
    top = openRoot(root);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  let dir: Dir | null = null;
  let fd = -1;
  try {
    dir = openDirs(op, top, parts.slice(0, -1), rel, false);
    if (!dir) return null;
    const name = parts[parts.length - 1];
    try {
      fd = openSync(within(dir, name), READ_FLAGS);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      refuse(op, dir, name, rel, e);
    }
    const st = fstatSync(fd);
    if (!st.isFile()) throw notRegular(op, rel, rel, st);
    if (st.size > FILE_READ_MAX_BYTES) throw tooLarge(rel, st.size);
    // the file may grow after the stat: read one byte more than allowed, never more
    const buf = Buffer.alloc(Math.min(st.size, FILE_READ_MAX_BYTES) + 1);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await readAt(fd, buf, filled, buf.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled === buf.length) break;
    }
    if (filled > FILE_READ_MAX_BYTES) throw tooLarge(rel, filled);
    return buf.subarray(0, filled).toString('utf8');
  } finally {
    // only once the read above has ended (a timed-out op still runs to here): the number is never reused under it
    if (fd >= 0) closeSync(fd);
    closeDirs(top, dir);
  }
}

const readAt = promisify(read);
const writeAt = promisify(write);

function tooLarge(rel: string, size: number): StepFailedError {
  return new StepFailedError(
    'op_too_large',
    `file/read: ${rel} is ${size > FILE_READ_MAX_BYTES ? `${size} bytes` : 'growing'}, over the limit of ${FILE_READ_MAX_BYTES} bytes; nothing was read. Read a smaller file, or have a code step split it.`,
    { op: 'file/read', path: rel, maxBytes: FILE_READ_MAX_BYTES },
  );
}

async function writeText(root: string, quota: WriteQuota | null, rel: string, content: string): Promise<{ bytes: number }> {
  const op = 'file/write';
  const parts = pathParts(op, rel);
  const data = Buffer.from(content, 'utf8');
  const top = openRoot(root);
  let dir: Dir | null = null;
  let fd = -1;
  try {
    dir = openDirs(op, top, parts.slice(0, -1), rel, true)!;
    const name = parts[parts.length - 1];
    if (quota) await quota.check(op, rel, data.length, !lstatOrNull(within(dir, name)));
    const temp = `.${name.slice(0, 100)}.stagecraft-${randomBytes(6).toString('hex')}.tmp`;
    fd = openSync(within(dir, temp), CREATE_FLAGS, 0o644);
    try {
      for (let at = 0; at < data.length; ) at += await writeAt(fd, data, at, data.length - at, at).then((r) => r.bytesWritten);
      closeSync(fd);
      fd = -1;
      // replaces whatever the name is — a file, or a link planted there — and never writes through it
      renameSync(within(dir, temp), within(dir, name));
    } catch (e) {
      tryUnlink(within(dir, temp));
      const st = lstatOrNull(within(dir, name));
      if (st && !st.isFile() && !st.isSymbolicLink()) throw notRegular(op, rel, rel, st);
      throw new StepFailedError('op_failed', `${op}: cannot write ${rel}: ${(e as Error).message}`, { op, path: rel });
    }
    return { bytes: data.length };
  } finally {
    if (fd >= 0) closeSync(fd);
    closeDirs(top, dir);
  }
}

function lstatOrNull(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

function tryUnlink(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    // never made, or gone
  }
}

/** The op's result, or a step failure once `ms` have passed (what is still under way closes its files when it ends). */
async function withTimeLimit<T>(op: string, rel: string, ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StepFailedError('op_timeout', `${op}: ${rel} took longer than ${ms} ms, and the step was failed rather than wait for the disk`, { op, path: rel, timeoutMs: ms })),
      ms,
    );
  });
  try {
    return await Promise.race([work(), late]);
  } finally {
    clearTimeout(timer);
  }
}
