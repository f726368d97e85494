/**
 * A bundle written out to a folder (`stagecraft pull`, the read-only copies
 * runs execute from: materialize.ts) without following a link at any name it
 * writes. The folder pulled into may be one a run's code can write (a
 * workspace the user named, or a folder inside one), and code can plant a link
 * at `skill.md` or at a subfolder's name pointing at a host file or folder
 * (a dotfile, a key): a plain write goes through it.
 *
 * So: a folder on a file's path that is a link is replaced by a real folder
 * (the link itself goes, never its target); a file is written to a new
 * temporary name opened with O_CREAT|O_EXCL|O_NOFOLLOW beside it and renamed
 * over its name (rename replaces a link, it does not follow it); where
 * /proc/self/fd can say, that the new file lies in the folder it was meant for
 * is checked on its descriptor before anything is written to it, so a folder
 * swapped for a link between the checks and the open is caught (the stray new
 * file is removed, and the pull fails). The folder named itself is taken as
 * given (the user's choice), resolved once.
 *
 * Owns: how each file lands. Does not: choose the files (pull-skill.ts,
 * materialize.ts) or read folders (bundle-dir.ts).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, fchmodSync, lstatSync, mkdirSync, openSync, readlinkSync, realpathSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { BundleInvalidError, UsageError } from '../../kernel/errors';
import { bundlePathProblem, type BundleFiles } from '../../skill/bundle';

const O = constants;
const NEW_FILE = O.O_WRONLY | O.O_CREAT | O.O_EXCL | O.O_NOFOLLOW;
const HAS_PROC_FD = existsSync('/proc/self/fd');

/** Writes a bundle into `dir` (created if needed): each file at its path. Files already there and not in the bundle are left alone. */
export function writeBundleDir(dir: string, files: BundleFiles, mode?: number): void {
  mkdirSync(dir, { recursive: true });
  const root = realpathSync(dir);
  for (const [p, text] of Object.entries(files)) {
    // the store only keeps checked paths; this is the last line before the file system all the same
    const bad = bundlePathProblem(p);
    if (bad) throw new BundleInvalidError([bad]);
    const parts = p.split('/');
    let folder = root;
    for (const part of parts.slice(0, -1)) folder = ensureFolder(folder, part, p, dir);
    writeReplacing(folder, parts[parts.length - 1], text, mode, p, dir);
  }
}

/** `folder/name` as a real folder: made when missing, a link there replaced by a folder; a file there is an error. */
function ensureFolder(folder: string, name: string, p: string, dir: string): string {
  const at = path.join(folder, name);
  const st = lstatSync(at, { throwIfNoEntry: false });
  if (st?.isDirectory()) return at;
  if (st?.isSymbolicLink()) unlinkSync(at);
  else if (st) throw new UsageError(`${p} cannot be written in ${dir}: ${path.relative(dir, at) || name} is a file there, not a folder. Move it away and pull again.`, { path: p });
  try {
    mkdirSync(at);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !lstatSync(at).isDirectory()) throw e;
  }
  return at;
}

/** `text` as the file `folder/name`: a new file beside it, renamed over whatever is at that name (a link is replaced, not followed). */
function writeReplacing(folder: string, name: string, text: string, mode: number | undefined, p: string, dir: string): void {
  const full = path.join(folder, name);
  const old = lstatSync(full, { throwIfNoEntry: false });
  if (old?.isDirectory()) throw new UsageError(`${p} cannot be written in ${dir}: it is a folder there. Move it away and pull again.`, { path: p });
  const tmp = path.join(folder, `.${name}.pull-${randomBytes(6).toString('hex')}`);
  // a file that was there keeps its mode (an executable script stays executable)
  const fileMode = mode ?? (old?.isFile() ? old.mode & 0o7777 : 0o666);
  const fd = openSync(tmp, NEW_FILE, fileMode);
  try {
    if (HAS_PROC_FD) {
      const real = readlinkSync(`/proc/self/fd/${fd}`);
      if (path.dirname(real) !== folder) {
        unlinkSync(real); // made by us, just now, where a link swapped in led
        throw new UsageError(`${p} was not written in ${dir}: a folder on its path was replaced by a link while it was written. Pull again into a folder no running code can change.`, { path: p });
      }
    }
    if (mode === undefined && old?.isFile()) fchmodSync(fd, fileMode);
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  } catch (e) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // gone already, or it was the stray one removed above
    }
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, full);
}
