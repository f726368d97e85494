/**
 * Walking a folder that untrusted code can change while the host walks it (a
 * run's workspace: its code steps, and threads they leave running, write there
 * at any moment) without ever following a link that code made.
 *
 * How: the root is opened once; every further component is opened *relative to
 * the descriptor of the folder above it*, with O_NOFOLLOW, one component at a
 * time, so a symlink at any component is refused (never followed), and
 * replacing a folder by a link after it was opened changes nothing — the host
 * holds the folder itself, not its name. Node has no `openat`, so "relative to
 * a descriptor" is spelled `/proc/self/fd/<fd>/<name>`: the kernel resolves
 * `/proc/self/fd/<fd>` to the open folder itself (a magic link, not a path it
 * looks up again) and then looks `<name>` up in it — the same lookup as
 * openat(fd, name, O_NOFOLLOW). `..` never appears (paths are checked
 * lexically first), so nothing resolves above the root: the effect of openat2's
 * RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, with calls Node has. Every open is
 * non-blocking (a FIFO opens at once instead of waiting for a writer) and
 * `fstat` on the descriptor, not a second lookup by name, says what was opened.
 *
 * These metadata calls (open, fstat, mkdir, rename, lstat, close) are made
 * synchronously: each takes microseconds on a local folder and none of them can
 * wait — folders and files are opened non-blocking and nothing is read —
 * while through the thread pool each would cost ten times that and queue
 * behind other I/O. Reading and writing file contents stays asynchronous.
 *
 * Where /proc is missing (not Linux), a component is opened by its full path:
 * O_NOFOLLOW still refuses a link at the component being opened, but a folder
 * above it swapped for a link in between is not caught — that race needs
 * /proc, and such machines have no sandbox either (isolation.ts says so).
 *
 * Owns: path checks, descriptor-relative opens, and the errors that say why a
 * path was refused. Does not: read, write or measure (workspace-files.ts,
 * workspace-usage.ts do, on top of this).
 */
import { chmodSync, closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { StepFailedError } from '../kernel/errors';

const O = constants;
/** how a folder is opened on the way down: never through a link, never blocking */
export const DIR_FLAGS = O.O_RDONLY | O.O_DIRECTORY | O.O_NOFOLLOW | O.O_NONBLOCK;
/** a file opened for reading: never through a link, never waiting (a FIFO), never becoming our terminal */
export const READ_FLAGS = O.O_RDONLY | O.O_NOFOLLOW | O.O_NONBLOCK | O.O_NOCTTY;
/** a file made for writing: new (never an existing one, or a link's target), never through a link */
export const CREATE_FLAGS = O.O_WRONLY | O.O_CREAT | O.O_EXCL | O.O_NOFOLLOW | O.O_NONBLOCK | O.O_NOCTTY;

const HAS_PROC_FD = existsSync('/proc/self/fd');

/** An open folder: its descriptor, the path it was opened from, and how it is named in messages. */
export type Dir = { fd: number; path: string; shown: string };

/** The name of `entry` inside an open folder, looked up relative to the folder itself (see the header). */
export function within(dir: Dir, entry: string): string {
  return withinFd(dir.fd, dir.path, entry);
}

/** The same, for a folder open as a plain descriptor `fd` (opened from `dirPath`). */
export function withinFd(fd: number, dirPath: string, entry: string): string {
  return HAS_PROC_FD ? `/proc/self/fd/${fd}/${entry}` : path.join(dirPath, entry);
}

/** Linux's O_PATH (not in Node's constants): a descriptor that names an entry, opened whatever its mode */
const O_PATH = 0o10000000;
/** a folder's owner may list it (r) and reach what is in it (x) */
export const OWNER_READ_SEARCH = 0o500;
/** root reads and searches any folder whatever its mode: only another user is kept out by one */
export const MODE_KEEPS_US_OUT = typeof process.getuid === 'function' && process.getuid() !== 0;

/**
 * Gives the owner back read and search on the folder at `p` (its other bits kept), when code took them
 * (`chmod 000`, `chmod 600`): code runs as the host's user, and a folder that user may not list or
 * search hides what is in it from the quota's walk (its open refused, or each entry's lstat). The
 * folder is opened as an entry (O_PATH, never through a link at its last part unless `follow`: the
 * top of a workspace), checked to be a folder on its descriptor, and changed through that descriptor
 * (/proc/self/fd), so a link swapped in at `p` is never followed to a host file. Linux only (O_PATH,
 * /proc); whether it changed anything.
 */
export function restoreOwnerAccess(p: string | Buffer, follow: boolean): boolean {
  if (!HAS_PROC_FD || process.platform !== 'linux') return false;
  let fd: number;
  try {
    fd = openSync(p, O_PATH | constants.O_DIRECTORY | (follow ? 0 : constants.O_NOFOLLOW));
  } catch {
    return false; // gone, or a link: nothing to give back
  }
  try {
    const st = fstatSync(fd);
    if (!st.isDirectory() || (st.mode & OWNER_READ_SEARCH) === OWNER_READ_SEARCH) return false;
    chmodSync(`/proc/self/fd/${fd}`, (st.mode & 0o7777) | OWNER_READ_SEARCH);
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** Opens the root of a walk (a host-made path: a link to a --workspace folder is followed here, and only here). */
export function openRoot(root: string): Dir {
  return { fd: openSync(root, O.O_RDONLY | O.O_DIRECTORY | O.O_NONBLOCK), path: root, shown: '' };
}

/** Closes what `openDirs` returned and the root it started from. */
export function closeDirs(root: Dir, dir: Dir | null): void {
  if (dir && dir !== root) closeSync(dir.fd);
  closeSync(root.fd);
}

/**
 * the most parts a path may have: as deep as the workspace walk measures (workspace-usage.ts), and a
 * bound on the folders one file/write makes — each is made and opened synchronously, so a path of
 * 20,000 parts held the event loop 8 s (and left a tree too deep for a recursive rm to remove)
 */
export const MAX_PATH_PARTS = 128;
/** the longest path looked at (MAX_PATH_PARTS names of at most 255 bytes, and room for `./` and `//`) */
export const MAX_PATH_CHARS = 65_536;

/** A path as the parts it names, or why it is refused: relative, no `..`, no NUL, no `.git` folder anywhere, at most MAX_PATH_PARTS parts. */
export function pathParts(op: string, rel: string): string[] {
  if (rel.includes('\0')) throw badPath(op, rel, 'contains a NUL character');
  if (path.isAbsolute(rel)) throw badPath(op, rel, 'must be relative to the run root');
  const shown = rel.length > 200 ? `${rel.slice(0, 200)}…` : rel;
  if (rel.length > MAX_PATH_CHARS) throw badPath(op, shown, `is ${rel.length} characters long, over ${MAX_PATH_CHARS}`);
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length > MAX_PATH_PARTS) throw badPath(op, shown, `has more than ${MAX_PATH_PARTS} parts (folders nested deeper are not measured, nor written)`);
  if (parts.includes('..')) throw badPath(op, rel, 'leaves the run root (`..` is not allowed)');
  if (!parts.length) throw badPath(op, rel, 'names the run root itself, not a file in it');
  if (parts.some(isGitName)) {
    throw new StepFailedError(
      'op_bad_path',
      `${op}: "${rel}" is inside a .git folder, which file ops never touch: git runs what a repository's config and hooks say, so a run may not read or change them. Use another path.`,
      { op, path: rel },
    );
  }
  return parts;
}

/** `.git` in any letter case (a case-insensitive file system would take `.GIT` for it) */
export function isGitName(name: string): boolean {
  return name.toLowerCase() === '.git';
}

function badPath(op: string, rel: string, why: string): StepFailedError {
  return new StepFailedError('op_bad_path', `${op}: path "${rel}" ${why}`, { op, path: rel });
}

/**
 * Opens the folders of `parts` one below the other from `root` (making missing ones when `create`);
 * null when one does not exist (and `create` is false). A link or a non-folder on the way is refused.
 */
export function openDirs(op: string, root: Dir, parts: string[], rel: string, create: boolean): Dir | null {
  let dir = root;
  try {
    for (const part of parts) {
      let next: number;
      try {
        next = openSync(within(dir, part), DIR_FLAGS);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT') refuse(op, dir, part, rel, e);
        if (!create) {
          if (dir !== root) closeSync(dir.fd);
          return null;
        }
        try {
          mkdirSync(within(dir, part), 0o755);
        } catch (m) {
          if ((m as NodeJS.ErrnoException).code !== 'EEXIST') throw m;
        }
        try {
          next = openSync(within(dir, part), DIR_FLAGS);
        } catch (again) {
          refuse(op, dir, part, rel, again);
        }
      }
      const shown = dir.shown ? `${dir.shown}/${part}` : part;
      if (dir !== root) closeSync(dir.fd);
      dir = { fd: next, path: path.join(dir.path, part), shown };
    }
    return dir;
  } catch (e) {
    if (dir !== root) closeSync(dir.fd);
    throw e;
  }
}

/** Throws the error that says why `part` of `dir` could not be opened (a link, not a folder, or the system's reason). */
export function refuse(op: string, dir: Dir, part: string, rel: string, e: unknown): never {
  const where = dir.shown ? `${dir.shown}/${part}` : part;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'ENXIO') {
    let st = null;
    try {
      st = lstatSync(within(dir, part));
    } catch {
      // gone since: the system's reason below
    }
    if (st?.isSymbolicLink()) {
      throw new StepFailedError(
        'op_bad_path',
        `${op}: ${where} is a symbolic link; file ops never follow links in a workspace (one made by code could point anywhere). Read or write the file it points to by its own path.`,
        { op, path: rel, link: where },
      );
    }
    if (st && !st.isDirectory() && !st.isFile()) throw notRegular(op, rel, where, st);
    if (st && code === 'ENOTDIR') throw new StepFailedError('op_bad_path', `${op}: ${where} is not a folder, so "${rel}" cannot be inside it`, { op, path: rel });
  }
  throw new StepFailedError('op_failed', `${op}: cannot open ${where}: ${(e as Error).message}`, { op, path: rel });
}

/** What kind of entry a non-regular file is, for messages. */
export function kindOf(st: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSymbolicLink(): boolean }): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

export function notRegular(op: string, rel: string, where: string, st: Parameters<typeof kindOf>[0]): StepFailedError {
  return new StepFailedError('op_bad_path', `${op}: ${where} is ${kindOf(st)}, not a regular file; file ops read and write regular files only`, { op, path: rel });
}
