/**
 * `stagecraft pull NAME [DIR] [--version HASH]`: a version written out to a
 * folder (default `./NAME`), so a skill can live in git as well as in the
 * app. Files of the version are written (replacing what is at their paths);
 * other files already in the folder are left alone and listed, since a later
 * `push` of the folder would include them. As `git checkout`, a file at one of
 * the version's paths whose text is in no saved version of the skill (edited,
 * not pushed) is not written over: nothing is written, and the pull says so
 * (UnsavedChangesError) unless it is told to (`--force`).
 */
import { closeSync, constants as fsConstants, existsSync, lstatSync, mkdirSync, openSync, statSync } from 'node:fs';
import { FILE_OPEN, readOpenedFile } from '../open-inside';
import path from 'node:path';
import { UnsavedChangesError, UsageError, VersionNotFoundError } from '../../kernel/errors';
import { MAX_BUNDLE_BYTES, type BundleFiles } from '../../skill/bundle';
import type { VersionSummaryView, VersionView } from '../../views';
import type { Host } from '../host';
import { listBundleDir } from './bundle-dir';
import { writeBundleDir } from './write-bundle-dir';
import { versionView } from './views';

/** `extra`: files of the folder not in the version; `isExtraCut`: the folder holds more than was listed */
export type PulledSkill = { dir: string; version: VersionSummaryView; written: string[]; extra: string[]; isExtraCut: boolean };

/**
 * A skill's saved versions, as a pull reads them when a file of the folder differs from the version's:
 * their hashes, and one's files (from the store, or through the app).
 */
export type SavedVersions = { hashes: () => Promise<string[]>; files: (hash: string) => Promise<BundleFiles> };

/**
 * `force`: replace files whose text is in no saved version all the same; `shownAs`: the folder as an
 * UnsavedChangesError names it (default: as given, else NAME)
 */
export type PullOptions = { dir?: string; cwd: string; force?: boolean; shownAs?: string };

export async function pullSkill(host: Pick<Host, 'skills'>, name: string, opts: PullOptions & { version?: string }): Promise<PulledSkill> {
  return writePulled(name, versionView(await host.skills.getVersion(name, opts.version)), opts, {
    hashes: async () => (await host.skills.listVersions(name))?.map((s) => s.hash) ?? [],
    files: async (hash) => (await host.skills.getVersion(name, hash)).files,
  });
}

/**
 * The version `name` named, as the API's view has it (its files with it), written out: what pullSkill
 * does once it has the version — and `stagecraft pull` with the version the app answered (`saved`
 * read through the app too).
 */
export async function writePulled(name: string, v: VersionView, opts: PullOptions, saved: SavedVersions): Promise<PulledSkill> {
  const { files, ...version } = v;
  const dir = path.resolve(opts.cwd, opts.dir ?? name);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`${opts.dir ?? name} is a file, not a folder: pull into a folder (new or existing).`);
  if (!opts.force && existsSync(dir)) {
    const unsaved = await unsavedIn(dir, files, version.hash, saved);
    if (unsaved.length) throw new UnsavedChangesError(name, opts.shownAs ?? (opts.dir ?? name), unsaved);
  }
  const listed = existsSync(dir) ? listBundleDir(dir) : { paths: [], isCut: false };
  const extra = listed.paths.filter((p) => !Object.prototype.hasOwnProperty.call(files, p));
  if (!existsSync(dir)) makeFolders(dir, opts.dir ?? name);
  writeBundleDir(dir, files);
  return { dir, version, written: Object.keys(files).sort(), extra, isExtraCut: listed.isCut };
}

/** a folder's file as push reads it (bundle-dir.ts): UTF-8, a byte order mark left out */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The paths of `files` where `dir` holds a file of other text, text no saved version of the skill has
 * at that path (`hash`: the version pulled, whose text differs there by definition), sorted. The saved
 * versions are read only when some file differs, newest first, until each such file is found in one.
 */
async function unsavedIn(dir: string, files: BundleFiles, hash: string, saved: SavedVersions): Promise<string[]> {
  const unsaved: string[] = [];
  const pending = new Map<string, string>();
  for (const p of Object.keys(files)) {
    const text = folderText(dir, p);
    if (text === null) unsaved.push(p);
    else if (text !== undefined && text !== files[p]) pending.set(p, text);
  }
  if (pending.size) {
    for (const other of await saved.hashes()) {
      if (other === hash) continue;
      let theirs: BundleFiles;
      try {
        theirs = await saved.files(other);
      } catch (e) {
        if (e instanceof VersionNotFoundError) continue; // gone since it was listed: it keeps nothing
        throw e;
      }
      for (const [p, text] of pending) if (theirs[p] === text) pending.delete(p);
      if (!pending.size) break;
    }
  }
  return [...unsaved, ...pending.keys()].sort();
}

/**
 * The text of the file at bundle path `p` in `dir`, as a pull would replace it: undefined where there
 * is nothing to lose (no file; a link, at the file or a folder on its path, is replaced and its target
 * left alone); null for a file no version can hold (not UTF-8, larger than a bundle).
 */
function folderText(dir: string, p: string): string | null | undefined {
  let at = dir;
  const parts = p.split('/');
  for (const [i, part] of parts.entries()) {
    at = path.join(at, part);
    const st = lstatSync(at, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) return undefined;
    if (i < parts.length - 1 ? !st.isDirectory() : !st.isFile()) return undefined;
  }
  let fd: number;
  try {
    // not through a link, and never waiting on a FIFO put there since it was looked at (open-inside.ts's file open)
    fd = openSync(at, FILE_OPEN | fsConstants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ELOOP' ? undefined : null; // gone, or made a link, since; else unreadable, so no version is known to hold it
  }
  try {
    const bytes = readOpenedFile(fd, MAX_BUNDLE_BYTES);
    if (bytes === null) return undefined; // no longer a regular file: nothing a pull replaces
    return bytes instanceof Buffer ? utf8.decode(bytes) : null; // larger than a bundle: in no version
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * `mkdir -p`, one level at a time: node's recursive mkdir spins forever, a core busy, where mkdir
 * answers ENOENT under a folder that exists (`pull NAME /proc/x`); and a folder that cannot be made
 * is said in words, not as node's error.
 */
function makeFolders(dir: string, shown: string): void {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at) && path.dirname(at) !== at; at = path.dirname(at)) missing.unshift(at);
  for (const at of missing) {
    try {
      mkdirSync(at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new UsageError(`Cannot make the folder ${shown} to pull into (${code} at ${at}): name a folder you can write.`);
    }
  }
}
