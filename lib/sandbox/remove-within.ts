/**
 * A folder code made removed with everything in it, never through a link code made, even while code
 * still changes it: each folder is held open while its names are removed, and each name is looked up
 * in the folder held (/proc/self/fd/N/name, confined-fs.ts `withinFd`), never by a path from the top.
 * unlink(2) removes a name, never what a link there leads to; a folder is entered by an open that
 * refuses a link (O_NOFOLLOW), and one swapped for a link meanwhile is unlinked as the link it now is.
 * Node's recursive rm instead looks each name up again by its full path: a folder swapped for a link
 * after rm found it a folder had rm list the link's target and unlink the host files there.
 *
 * Async (the thread pool, as Node's rm): a large tree does not hold the event loop, and nothing forks
 * (the app's server must not: spawner.ts). A folder code locked (`chmod 000`, or only its write taken)
 * is given back its owner's access through the descriptor held (its search and read when it is opened,
 * its write when a name in it cannot be removed: `fchmod` of that folder, never of a link), as Node's rm
 * and `rm -rf` cannot (a folder without write keeps its names, even as its owner). Linux only (/proc);
 * a tree deeper than MAX_REMOVE_DEPTH, one code keeps filling, or a name that is not UTF-8 is refused (an
 * error), for the caller's fallback (sweep-workspaces.ts `removeTree`: the system's `rm -rf`).
 *
 * Owns: removing by descriptors. Does not: choose what goes, or when (sweep-workspaces.ts).
 */
import { existsSync, fchmod, fstat } from 'node:fs';
import { open, opendir, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { DIR_FLAGS, restoreOwnerAccess } from './confined-fs';

/** whether `removeWithin` can work here (descriptors named through /proc) */
export const CAN_REMOVE_WITHIN = existsSync('/proc/self/fd');
/** the deepest folder removed here: one descriptor is held per level */
export const MAX_REMOVE_DEPTH = 256;
/** listings of one folder before it is taken to be filled as fast as it is emptied */
const MAX_ROUNDS = 3;

const codeOf = (e: unknown) => (e as NodeJS.ErrnoException).code ?? '';
/** owner's read, write and search: what removing the names in a folder needs */
const OWNER_ALL = 0o700;
const fstatFd = promisify(fstat);
const fchmodFd = promisify(fchmod);

/** the removals a walk makes, by a name in a held folder (/proc/self/fd/N/name); a test replaces them to see a refusal */
export type Removals = { unlink: (p: string) => Promise<void>; rmdir: (p: string) => Promise<void> };
const SYSTEM: Removals = { unlink, rmdir: (p) => rmdir(p) };

/**
 * The folder held as `fd` given its owner's read, write and search (code took its write: a name in it
 * cannot go), through that descriptor (a folder opened without following a link: never what a link
 * leads to); false when it had them already (the refusal was something else).
 */
async function giveOwnerWrite(fd: number, chmodFd: (fd: number, mode: number) => Promise<void>): Promise<boolean> {
  const mode = (await fstatFd(fd)).mode & 0o7777;
  if ((mode & OWNER_ALL) === OWNER_ALL) return false;
  await chmodFd(fd, mode | OWNER_ALL);
  return true;
}

/** `remove(p)`, a name in the folder held as `fd`: refused for want of the folder's write, that write given back and tried once more */
async function removeIn(fd: number, p: string, remove: (p: string) => Promise<void>, chmodFd: (fd: number, mode: number) => Promise<void>): Promise<void> {
  try {
    await remove(p);
  } catch (e) {
    if ((codeOf(e) === 'EACCES' || codeOf(e) === 'EPERM') && (await giveOwnerWrite(fd, chmodFd))) return remove(p);
    throw e;
  }
}

/**
 * Removes the folder at `place` (a host path, no link in it: a link at its own name is refused) and all
 * in it. `removals`/`chmodFd`: the system's, but in a test.
 */
export async function removeWithin(place: string, removals: Removals = SYSTEM, chmodFd: (fd: number, mode: number) => Promise<void> = fchmodFd): Promise<void> {
  const top = await openFolder(place);
  if (!top) return; // gone already
  const walk: Walk = { removals, chmodFd };
  try {
    await emptyFolder(walk, top.fd, 0);
  } finally {
    await top.close();
  }
  await rmdir(place);
}

type Walk = { removals: Removals; chmodFd: (fd: number, mode: number) => Promise<void> };

/** the folder at `p` held open (never through a link at its name), its owner's access given back once when code took it; null when gone */
async function openFolder(p: string): Promise<FileHandle | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await open(p, DIR_FLAGS);
    } catch (e) {
      if (codeOf(e) === 'ENOENT') return null;
      if (codeOf(e) === 'EACCES' && attempt === 0 && restoreOwnerAccess(p, false)) continue;
      throw e;
    }
  }
}

async function emptyFolder(walk: Walk, fd: number, depth: number): Promise<void> {
  if (depth > MAX_REMOVE_DEPTH) throw new Error(`nested deeper than ${MAX_REMOVE_DEPTH} folders`);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const names: string[] = [];
    for await (const entry of await opendir(`/proc/self/fd/${fd}`)) names.push(entry.name);
    if (!names.length) return;
    for (const name of names) await removeEntry(walk, fd, name, depth);
  }
  throw new Error('filled as fast as it was emptied');
}

/** `name` in the folder held as `fd`: unlinked, or (a folder) emptied through its own descriptor and removed */
async function removeEntry(walk: Walk, fd: number, name: string, depth: number): Promise<void> {
  const p = `/proc/self/fd/${fd}/${name}`;
  try {
    // a file, a link, a FIFO: the name goes, never what it leads to
    await removeIn(fd, p, walk.removals.unlink, walk.chmodFd);
    return;
  } catch (e) {
    if (codeOf(e) === 'ENOENT') return;
    if (codeOf(e) !== 'EISDIR' && codeOf(e) !== 'EPERM') throw e;
  }
  let child: FileHandle | null;
  try {
    child = await openFolder(p);
  } catch (e) {
    // a link (ELOOP) or a file (ENOTDIR) swapped in since the unlink: removed as what it is now
    if (codeOf(e) === 'ELOOP' || codeOf(e) === 'ENOTDIR') return removeIn(fd, p, walk.removals.unlink, walk.chmodFd);
    throw e;
  }
  if (!child) return;
  try {
    await emptyFolder(walk, child.fd, depth + 1);
  } finally {
    await child.close();
  }
  await removeIn(fd, p, walk.removals.rmdir, walk.chmodFd);
}
