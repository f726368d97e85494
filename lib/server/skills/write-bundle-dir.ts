/**
 * A bundle written out to a folder (`stagecraft pull`, the read-only copies
 * runs execute from: materialize.ts) without following a link at any name it
 * writes. The folder pulled into may be one a run's code can write (a
 * workspace the user named, or a folder inside one), and code can plant a link
 * at `skill.md` or at a subfolder's name pointing at a host file or folder
 * (a dotfile, a key): a plain write goes through it.
 *
 * So: a folder on a file's path that is a link is replaced by a real folder
 * (the link itself goes, never its target); a file is written beside its name
 * and renamed over it, a link there replaced, not followed (replace-file.ts).
 * The folder named itself is taken as given (the user's choice), resolved once.
 * Each folder is held open while a name in it is made or replaced (open-inside.ts
 * `holdFolder`), so a link swapped in at its name meanwhile leads nowhere.
 *
 * Owns: how each file lands. Does not: choose the files (pull-skill.ts,
 * materialize.ts) or read folders (bundle-dir.ts).
 */
import { lstatSync, mkdirSync, realpathSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { BundleInvalidError, UsageError } from '../../kernel/errors';
import { bundlePathProblem, type BundleFiles } from '../../skill/bundle';
import { holdFolder } from '../open-inside';
import { linkSwappedIn, replaceFile } from '../replace-file';

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
    replaceFile(folder, parts[parts.length - 1], text, { shown: `${p} in ${dir}`, mode });
  }
}

/** `folder/name` as a real folder: made when missing, a link there replaced by a folder; a file there is an error. */
function ensureFolder(folder: string, name: string, p: string, dir: string): string {
  const at = path.join(folder, name);
  const held = holdFolder(folder); // looked up, unlinked and made in `folder` itself, not wherever its path leads meanwhile
  if (!held) throw linkSwappedIn(`${p} in ${dir}`);
  try {
    const here = held.at(name);
    const st = lstatSync(here, { throwIfNoEntry: false });
    if (st?.isDirectory()) return at;
    if (st?.isSymbolicLink()) unlinkSync(here);
    else if (st) throw new UsageError(`${p} cannot be written in ${dir}: ${path.relative(dir, at) || name} is a file there, not a folder. Move it away and pull again.`, { path: p });
    try {
      mkdirSync(here);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !lstatSync(here).isDirectory()) throw e;
    }
    return at;
  } finally {
    held.close();
  }
}
