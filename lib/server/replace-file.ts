/**
 * Writing a file the host makes for the user (`pull`, `export --out`) at a
 * name in a folder a run's code may be able to write (a workspace the user
 * named): code can plant a link at that name, pointing at a host file (a
 * dotfile, a key), and a plain write goes through it — the host's file then
 * holds text the run chose.
 *
 * So the text goes to a new temporary name beside it, opened with
 * O_CREAT|O_EXCL|O_NOFOLLOW, and is renamed over the name: rename replaces a
 * link, it never follows it. That the new file lies in the folder meant is
 * checked on its descriptor before anything is written (open-inside.ts: by
 * /proc/self/fd, or without it by its real path), so a folder of the path
 * swapped for a link before the open is caught (the stray file is removed,
 * and the write refused). A file that was at the name keeps its mode. The folder itself is held open
 * while its file lands (open-inside.ts `holdFolder`): the temporary file and the name it is renamed over
 * are looked up in the folder held, never each by its path — rename(2) looks its two paths up apart, and
 * code swapping a link in at a folder's name between the two moved the file into the folder linked to.
 *
 * Owns: how one file lands. Does not: choose where (its callers resolve the
 * folder, once, as the user named it).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, lstatSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../kernel/errors';
import { holdFolder, openInside, type HeldFolder } from './open-inside';

const O = constants;
const NEW_FILE = O.O_WRONLY | O.O_CREAT | O.O_EXCL | O.O_NOFOLLOW;

/**
 * `text` as the file `name` in `folder` (a real path: no link in it), replacing whatever is at that name
 * but a folder; `shown` names the file in errors, `mode` is the new file's (default: the old one's, or 0666).
 */
export function replaceFile(folder: string, name: string, text: string, opts: { shown: string; mode?: number }): void {
  const held = holdFolder(folder);
  if (!held) throw linkSwappedIn(opts.shown);
  try {
    writeInto(held, folder, name, text, opts);
  } finally {
    held.close();
  }
}

/** The error for a folder on a written file's path that running code replaced by a link (or moved) meanwhile. */
export function linkSwappedIn(shown: string): UsageError {
  return new UsageError(`${shown} was not written: a folder on its path was replaced by a link while it was written. Write into a folder no running code can change.`, { path: shown });
}

function writeInto(held: HeldFolder, folder: string, name: string, text: string, opts: { shown: string; mode?: number }): void {
  const full = held.at(name);
  const old = lstatSync(full, { throwIfNoEntry: false });
  if (old?.isDirectory()) throw new UsageError(`${opts.shown} cannot be written: it is a folder there. Move it away and try again.`, { path: opts.shown });
  const tmp = held.at(`.${name}.new-${randomBytes(6).toString('hex')}`);
  const fileMode = opts.mode ?? (old?.isFile() ? old.mode & 0o7777 : 0o666);
  // through the folder's descriptor the new file is in it; through its path, where it landed is checked
  const opened = openInside(tmp, NEW_FILE, (real) => held.byDescriptor || path.dirname(real) === folder, fileMode);
  if (!opened || 'outside' in opened) {
    removeStray(opened ? opened.outside : tmp); // made by us, just now, where a link swapped in led (if it was made)
    throw linkSwappedIn(opts.shown);
  }
  const fd = opened.fd;
  try {
    if (opts.mode === undefined && old?.isFile()) fchmodSync(fd, fileMode); // the umask does not narrow a kept mode
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  } catch (e) {
    closeSync(fd);
    removeStray(tmp);
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, full); // with /proc, both names are looked up in the folder held, whatever its path leads to now
}

function removeStray(tmp: string): void {
  try {
    unlinkSync(tmp);
  } catch {
    // gone already
  }
}
