/**
 * Opening a file or folder that running code may be changing (a bundle folder in a workspace the user
 * named, a folder `pull` or `export --out` writes into) and knowing that what was opened is where it
 * was meant to be; and reading an opened file within a size cap.
 *
 * The checks look at what an open gave, on its descriptor: the object opened must be inside (its path
 * as /proc/self/fd says, so a link swapped in at any part of the path before the open is caught), and
 * a file is read non-blocking (a FIFO at that name is passed over, never waited on), only when it is a
 * regular file, and never more than one byte past its cap (a file growing after a size check is not
 * read whole).
 *
 * Without /proc (macOS; a Linux without it mounted) no descriptor says its path, and Node has no
 * openat. There the path is resolved first (realpath; for a file being created, its folder's) and
 * checked inside, and that real path — no link in it when checked — is what is opened, with O_NOFOLLOW
 * (and on macOS O_NOFOLLOW_ANY: a link at any part of the path fails the open); the descriptor must
 * then be the entry at that path, which must still be that real path (one swapped in at a part before
 * the last and back again is caught). What stays possible on Linux without /proc is a folder of the
 * path swapped for a link and back twice between those three system calls (against a process
 * exchanging a folder and a link as fast as it can, about 1 read in 4,000 — the realpath-then-open
 * before: 1 to 8 in 2,000, and a link at the last name 16 to 45 in 2,000, now none); code that could do
 * that is not confined there anyway — bubblewrap needs /proc (it reads /proc/sys/kernel/overflowuid), so
 * without it code runs with the server's rights and could read the host's file itself. Refusing to read
 * bundles there would take `push`, `validate` and `run DIR` from macOS users and protect nothing.
 *
 * Owns: the open, the check of where it landed, the capped read. Does not: decide what counts as inside
 * (its callers' `isInside`), or what a refusal means to the user.
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';

const O = constants;
/** a folder, to list through its descriptor */
export const DIR_OPEN = O.O_RDONLY | O.O_DIRECTORY | O.O_NONBLOCK;
/** a file to read: non-blocking, so a FIFO opens at once (and is then passed over as not a regular file) */
export const FILE_OPEN = O.O_RDONLY | O.O_NONBLOCK | O.O_NOCTTY;
const HAS_PROC_FD = existsSync('/proc/self/fd');
/** macOS's open flag: fail with ELOOP if any part of the path is a link (not in Node's constants) */
const O_NOFOLLOW_ANY = process.platform === 'darwin' ? 0x20000000 : 0;

export type Opened = { fd: number; real: string; listing: string };

/**
 * `abs` opened with `flags` (and `mode`, when it creates), with where it really is; `outside` (the
 * descriptor closed) when that is not inside; null when it was gone or changed before it could be
 * checked. The open's own error (no such file, no right) is thrown.
 */
export function openInside(abs: string, flags: number, isInside: (real: string) => boolean, mode?: number): Opened | { outside: string } | null {
  if (!HAS_PROC_FD) return openInsideByRealPath(abs, flags, isInside, mode);
  const fd = openSync(abs, flags, mode);
  let real: string;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    closeSync(fd);
    return null;
  }
  if (!isInside(real)) {
    closeSync(fd);
    return { outside: real };
  }
  return { fd, real, listing: `/proc/self/fd/${fd}` };
}

/** `openInside` without /proc: its real path checked, then opened following no link at its end, then checked again (see above). */
function openInsideByRealPath(abs: string, flags: number, isInside: (real: string) => boolean, mode?: number): Opened | { outside: string } | null {
  // a file being created has no real path yet: its folder's, and its name
  const real = flags & O.O_CREAT ? path.join(realpathSync(path.dirname(abs)), path.basename(abs)) : realpathSync(abs);
  if (!isInside(real)) return { outside: real };
  const fd = openSync(real, flags | O.O_NOFOLLOW | O_NOFOLLOW_ANY, mode); // ELOOP: a link was swapped in at a name of the path
  try {
    const opened = fstatSync(fd);
    const at = lstatSync(real);
    if (opened.ino === at.ino && opened.dev === at.dev && realpathSync(real) === real) return { fd, real, listing: real };
  } catch {
    // gone since: nothing read
  }
  closeSync(fd);
  return null;
}

/** A folder held open while names in it are made, replaced and renamed (`holdFolder`). */
export type HeldFolder = {
  /** `name` in the folder held: through its descriptor with /proc, else through its path */
  at(name: string): string;
  /** whether `at` goes through the descriptor (with /proc), so that nothing looked up through it can land elsewhere */
  byDescriptor: boolean;
  close(): void;
};

/**
 * `folder` (a real path: no link in it) held open, checked to be that folder when opened; null when
 * something else was there (a link swapped in at any part of the path, or nothing). With /proc, names
 * looked up through `at` land in the folder held even if running code then renames it or puts a link at
 * its name — which a path cannot promise: rename(2) looks its two paths up apart, so a temporary file and
 * the name it replaces, both given by path, can be found in two folders, and the file moved into the one a
 * link led to. Without /proc: its path (the caller checks what it opens, as `openInside` does).
 */
export function holdFolder(folder: string): HeldFolder | null {
  if (!HAS_PROC_FD) return { at: (name) => path.join(folder, name), byDescriptor: false, close() {} };
  let fd: number;
  try {
    fd = openSync(folder, DIR_OPEN | O.O_NOFOLLOW); // ELOOP: a link at its own name
  } catch (e) {
    if (['ELOOP', 'ENOTDIR', 'ENOENT'].includes((e as NodeJS.ErrnoException).code ?? '')) return null;
    throw e;
  }
  let real: string | null = null;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    // gone since
  }
  if (real !== folder) {
    closeSync(fd);
    return null;
  }
  return { at: (name) => `/proc/self/fd/${fd}/${name}`, byDescriptor: true, close: () => closeSync(fd) };
}

/** The bytes of the opened file, `{ size }` when over `cap` (read up to one byte past it, never more), null when it is not a regular file. */
export function readOpenedFile(fd: number, cap: number): Buffer | { size: number } | null {
  const st = fstatSync(fd);
  if (!st.isFile()) return null;
  if (st.size > cap) return { size: st.size };
  const buf = Buffer.alloc(st.size + 1);
  let filled = 0;
  for (let n; filled < buf.length && (n = readSync(fd, buf, filled, buf.length - filled, filled)) > 0; ) filled += n;
  return filled > cap ? { size: filled } : buf.subarray(0, filled);
}
