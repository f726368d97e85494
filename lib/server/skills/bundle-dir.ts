/**
 * A bundle folder on disk ↔ a bundle as data (`files`: path → text): what
 * `stagecraft push`, `run DIR` and `validate DIR` read, and what `pull` and
 * the read-only copies a run executes from (materialize.ts) write (write-bundle-dir.ts).
 *
 * Owns: which files of a folder belong to the bundle (everything but version
 * control, dependency and cache folders), that a symlink counts only when it
 * resolves inside the folder (then as the file it points to), that a file is
 * UTF-8 text without NUL (a binary file is refused, never mangled), and the
 * limits, checked while reading so a huge folder is not read whole; and that what
 * is read is what was checked: a file is read from its descriptor, whose real
 * path is checked (a link swapped in after the check is caught: open-inside.ts).
 * Does not: decide what the bundle means (lib/skill) or store it (lib/store).
 */
import { closeSync, lstatSync, opendirSync, readlinkSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { checkBundle, firstInvalidUtf8, MAX_BUNDLE_FILE_BYTES, MAX_BUNDLE_FILES, type BundleFiles, type BundleProblem } from '../../skill/bundle';
import { MAX_SKILL_BYTES } from '../../skill/validate';
import { DIR_OPEN, FILE_OPEN, openInside, readOpenedFile } from '../open-inside';

/**
 * what a bundle folder holds that is never part of the bundle: version control (a folder kept in
 * git is pushed without its `.git`; a bundle path through one is refused, bundle.ts), dependencies,
 * caches, our own data
 */
export const IGNORED_NAMES = new Set([
  ...['.git', '.hg', '.svn', '.bzr', '_darcs', '.fossil-settings', '.fslckout', '_FOSSIL_', 'CVS', '.pijul', '.jj', '.sl'],
  ...['node_modules', '__pycache__', '.venv', '.mypy_cache', '.pytest_cache', '.stagecraft', '.DS_Store', '.next'],
]);

export type ReadBundle = { files: BundleFiles; problems: BundleProblem[] };

/** the most entries a bundle folder's listings may hold in all (files, folders, links: a bundle holds at most MAX_BUNDLE_FILES files) */
export const MAX_BUNDLE_ENTRIES = MAX_BUNDLE_FILES * 5;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A link in the bundle that leads nowhere, in words: the link, where it points (as written, and where that
 * is when it is relative), that nothing is there (or that links lead round in a loop), and what to do.
 */
function danglingWords(p: string, full: string, code: string | undefined): string {
  let target: string;
  try {
    target = readlinkSync(full);
  } catch {
    return `${p} is a symlink whose target cannot be read: remove the link, or replace it with the file itself.`;
  }
  const resolved = path.resolve(path.dirname(full), target);
  const where = resolved === target ? target : `${target} (${resolved})`;
  if (code === 'ELOOP') return `${p} is a symlink to ${where}, and the links from there lead round in a loop: remove the link, or replace it with the file itself.`;
  if (code !== undefined && code !== 'ENOENT') return `${p} is a symlink to ${where}, which cannot be reached (${code}): remove the link, or replace it with the file itself.`;
  return `${p} is a symlink to ${where}, which does not exist (the link's target is missing): remove the link, or point it at a file of the bundle (or copy the file into the bundle in its place).`;
}

/** Reads a bundle folder. Problems (binary files, symlinks out, limits, bad paths) are listed, not thrown. */
export function readBundleDir(dir: string): ReadBundle {
  const root = realpathSync(dir);
  const files: BundleFiles = {};
  const problems: BundleProblem[] = [];
  let count = 0;
  /** entries looked at (files, folders, links, whatever else; not the ignored ones), against MAX_BUNDLE_ENTRIES */
  let entries = 0;
  let isOver = false;
  const tooMany = (what: string): void => {
    isOver = true;
    problems.push({ code: 'bundle_too_many_files', path: '', message: `The folder has more than ${what}: keep only what the skill runs or reads.` });
  };
  // a symlinked folder inside the bundle may point back up: each real folder is read once
  const visited = new Set<string>();
  const escaped = (p: string, real: string): void => {
    problems.push({
      code: 'bundle_symlink_escape',
      path: p,
      message: `${p} is a symlink to ${real}, outside the bundle folder: a skill can only hold files of its own folder. Copy the file into the bundle instead.`,
    });
  };
  const isInside = (real: string) => real === root || real.startsWith(root + path.sep);
  const walk = (abs: string, rel: string): void => {
    let opened;
    try {
      opened = openInside(abs, DIR_OPEN, isInside);
    } catch {
      return; // gone, or not ours to read
    }
    if (!opened) return;
    let names: string[];
    try {
      if ('outside' in opened) return escaped(rel, opened.outside);
      if (visited.has(opened.real)) return;
      visited.add(opened.real);
      const listed = listWithin(opened.listing, MAX_BUNDLE_ENTRIES - entries);
      if (listed.isCut) return tooMany(`${MAX_BUNDLE_ENTRIES} entries (files, folders and links)`);
      entries += listed.entries.length;
      names = listed.entries.map((entry) => entry.name);
    } finally {
      if ('fd' in opened) closeSync(opened.fd);
    }
    for (const name of names.sort()) {
      if (isOver) return;
      const p = rel ? `${rel}/${name}` : name;
      const full = path.join(abs, name);
      // an entry gone since the listing (code deleting while the folder is read) was not there: skipped
      let st = lstatSync(full, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSync(full);
        } catch (e) {
          problems.push({ code: 'bundle_symlink_escape', path: p, message: danglingWords(p, full, (e as NodeJS.ErrnoException).code) });
          continue;
        }
        if (!isInside(real)) {
          escaped(p, real);
          continue;
        }
        st = statSync(full, { throwIfNoEntry: false });
        if (!st) continue; // the link gone since it was resolved
      }
      if (st.isDirectory()) {
        walk(full, p);
        continue;
      }
      if (!st.isFile()) continue;
      if (++count > MAX_BUNDLE_FILES) return tooMany(`${MAX_BUNDLE_FILES} files`);
      const cap = p === 'skill.md' ? MAX_SKILL_BYTES : MAX_BUNDLE_FILE_BYTES;
      let bytes: Buffer | { size: number } | null;
      try {
        bytes = readInside(full, cap, isInside, (real) => escaped(p, real));
      } catch (e) {
        problems.push({ code: 'bundle_unreadable', path: p, message: `${p} cannot be read: ${(e as Error).message}.` });
        continue;
      }
      if (bytes === null) continue;
      if (!Buffer.isBuffer(bytes)) {
        problems.push({ code: 'bundle_file_too_large', path: p, message: `${p} is ${bytes.size} bytes, over the limit of ${cap} for one file.` });
        continue;
      }
      let text: string;
      try {
        text = utf8.decode(bytes);
      } catch {
        problems.push(notUtf8(p, bytes));
        continue;
      }
      files[p] = text;
    }
  };
  walk(root, '');
  if (problems.some((x) => x.code === 'bundle_too_many_files')) return { files, problems };
  const seen = new Set(problems.map((x) => `${x.code}:${x.path}`));
  // a skill.md read and refused (not UTF-8, too large, unreadable) is that problem, not also a missing skill.md
  const isSkillMdRefused = problems.some((x) => x.path === 'skill.md');
  for (const x of checkBundle(files)) {
    if (seen.has(`${x.code}:${x.path}`) || (x.code === 'bundle_no_skill_md' && isSkillMdRefused)) continue;
    problems.push(x);
  }
  return { files, problems };
}

/**
 * A bundle folder may be written while it is read: by a run's code, when it lies in a workspace the
 * user named (a child bundle run_skill names is a folder beside the caller's). The checks above look
 * by path; what is read is what an open gave, checked on its descriptor (open-inside.ts).
 */

/**
 * The text of a bundle's skill.md at `file` (in the bundle folder `dir`), read as readBundleDir reads a
 * file: opened without waiting (code can make it a FIFO), from inside the folder (a link counts when it
 * leads there), a regular file of at most MAX_SKILL_BYTES, UTF-8; null when it is none of these.
 */
export function readSkillMdIn(dir: string, file: string): string | null {
  try {
    const root = realpathSync(dir);
    const bytes = readInside(file, MAX_SKILL_BYTES, (real) => real === root || real.startsWith(root + path.sep), () => undefined);
    return Buffer.isBuffer(bytes) ? utf8.decode(bytes) : null;
  } catch {
    return null;
  }
}

/** The bytes of the regular file at `abs`, `{ size }` when over `cap`, null when it is not a regular file (or is outside: `onOutside`). */
function readInside(abs: string, cap: number, isInside: (real: string) => boolean, onOutside: (real: string) => void): Buffer | { size: number } | null {
  const opened = openInside(abs, FILE_OPEN, isInside);
  if (!opened) throw new Error('it changed while it was opened');
  if ('outside' in opened) {
    onOutside(opened.outside);
    return null;
  }
  try {
    return readOpenedFile(opened.fd, cap);
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * The entries of the folder at `listing` but the ignored ones, read entry by entry, at most `room` of
 * them; `isCut` when there were more. A folder beside a run's bundle may be one its code filled (300,000
 * links: readdirSync took 22 s of the host's event loop, then each was lstat'ed and reported), so no more
 * of a listing is read than the bundle may hold.
 */
function listWithin(listing: string, room: number): { entries: Dirent[]; isCut: boolean } {
  const entries: Dirent[] = [];
  const dir = opendirSync(listing);
  try {
    for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
      if (IGNORED_NAMES.has(entry.name)) continue;
      if (entries.length >= room) return { entries, isCut: true };
      entries.push(entry);
    }
  } finally {
    dir.closeSync();
  }
  return { entries, isCut: false };
}

/**
 * A file that does not decode as UTF-8. skill.md is text the author edits: the problem says where
 * (line and column of the first bad byte). Another file is taken for a binary file.
 */
function notUtf8(p: string, bytes: Buffer): BundleProblem {
  if (p !== 'skill.md') {
    return {
      code: 'bundle_file_binary',
      path: p,
      message: `${p} is not UTF-8 text: a bundle holds text files only (code, prompts, model scripts, JSON or text data). Remove it, or keep the data as text.`,
    };
  }
  const at = firstInvalidUtf8(bytes);
  const before = bytes.subarray(0, at);
  const lineStart = before.lastIndexOf(0x0a) + 1;
  const line = before.filter((b) => b === 0x0a).length + 1;
  const column = utf8.decode(bytes.subarray(lineStart, at)).length + 1;
  return {
    code: 'skill_md_not_utf8',
    path: p,
    line,
    column,
    message: `skill.md is not valid UTF-8: byte 0x${bytes[at].toString(16).toUpperCase().padStart(2, '0')} at line ${line}, column ${column} cannot be read. Save skill.md as UTF-8 (or fix the character there).`,
  };
}

/** folders below a listed folder's top that `listBundleDir` goes into (a bundle path has fewer parts) */
const MAX_LIST_DEPTH = 32;

/**
 * The file paths under `dir` (bundle-relative, `/`-separated), ignoring what a bundle never holds; at
 * most MAX_BUNDLE_ENTRIES entries looked at and MAX_LIST_DEPTH folders deep, read entry by entry
 * (`pull` lists what else a folder holds, and the folder may be one a run's code filled or nested
 * thousands deep). `isCut`: there was more (or a folder could not be read).
 */
export function listBundleDir(dir: string): { paths: string[]; isCut: boolean } {
  const paths: string[] = [];
  let seen = 0;
  let isCut = false;
  const walk = (abs: string, rel: string, depth: number): void => {
    if (depth > MAX_LIST_DEPTH) {
      isCut = true;
      return;
    }
    let listed;
    try {
      listed = listWithin(abs, MAX_BUNDLE_ENTRIES - seen);
    } catch {
      isCut = true;
      return;
    }
    seen += listed.entries.length;
    if (listed.isCut) isCut = true;
    for (const entry of listed.entries) {
      if (isCut && entry.isDirectory()) continue; // past the limit: this folder's own entries are listed, no deeper
      const p = rel ? `${rel}/${entry.name}` : entry.name;
      // the entry's own type (a link is a link, never what it points at)
      if (entry.isDirectory()) walk(path.join(abs, entry.name), p, depth + 1);
      else paths.push(p);
    }
  };
  walk(dir, '', 0);
  return { paths: paths.sort(), isCut };
}
