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
 * (the app's server must not: spawner.ts). Linux only (/proc); a tree deeper than MAX_REMOVE_DEPTH,
 * one code keeps filling, a folder code made unwritable, or a name that is not UTF-8 is refused (an
 * error), for the caller's fallback (sweep-workspaces.ts `removeTree`: the system's `rm -rf`).
 *
 * Owns: removing by descriptors. Does not: choose what goes, or when (sweep-workspaces.ts).
 */
import { existsSync } from 'node:fs';
import { open, opendir, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { DIR_FLAGS, restoreOwnerAccess } from './confined-fs';

/** whether `removeWithin` can work here (descriptors named through /proc) */
export const CAN_REMOVE_WITHIN = existsSync('/proc/self/fd');
/** the deepest folder removed here: one descriptor is held per level */
export const MAX_REMOVE_DEPTH = 256;
/** listings of one folder before it is taken to be filled as fast as it is emptied */
const MAX_ROUNDS = 3;

const codeOf = (e: unknown) => (e as NodeJS.ErrnoException).code ?? '';

/** Removes the folder at `place` (a host path, no link in it: a link at its own name is refused) and all in it. */
export async function removeWithin(place: string): Promise<void> {
  const top = await openFolder(place);
  if (!top) return; // gone already
  try {
    await emptyFolder(top.fd, 0);
  } finally {
    await top.close();
  }
  await rmdir(place);
}

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

async function emptyFolder(fd: number, depth: number): Promise<void> {
  if (depth > MAX_REMOVE_DEPTH) throw new Error(`nested deeper than ${MAX_REMOVE_DEPTH} folders`);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const names: string[] = [];
    for await (const entry of await opendir(`/proc/self/fd/${fd}`)) names.push(entry.name);
    if (!names.length) return;
    for (const name of names) await removeEntry(fd, name, depth);
  }
  throw new Error('filled as fast as it was emptied');
}

/** `name` in the folder held as `fd`: unlinked, or (a folder) emptied through its own descriptor and removed */
async function removeEntry(fd: number, name: string, depth: number): Promise<void> {
  const p = `/proc/self/fd/${fd}/${name}`;
  try {
    await unlink(p); // a file, a link, a FIFO: the name goes, never what it leads to
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
    if (codeOf(e) === 'ELOOP' || codeOf(e) === 'ENOTDIR') return unlink(p);
    throw e;
  }
  if (!child) return;
  try {
    await emptyFolder(child.fd, depth + 1);
  } finally {
    await child.close();
  }
  await rmdir(p);
}
