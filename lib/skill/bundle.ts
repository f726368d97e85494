/**
 * A skill bundle as data: `skill.md` plus its code modules, model scripts and
 * data files, as a map of bundle path → text. This is what the store keeps as
 * one version, what the API carries (`files`), and what the editor edits.
 *
 * Owns: the bundle's limits (file count, sizes), what a bundle path may be
 * (relative, POSIX, inside the bundle, no empty or dot segments, no NUL), and
 * the rule that files are text. Each problem is a `BundleProblem` naming the
 * path and saying what to do. Imports nothing from Node: the editor checks a
 * bundle with the same function the server does.
 *
 * Does not: read or write folders (lib/server/skills/bundle-dir.ts), hash
 * (the store), or validate skill.md (validate.ts).
 */
export type BundleFiles = Record<string, string>;

export const SKILL_MD = 'skill.md';
export const MAX_BUNDLE_FILES = 200;
/** the whole bundle, UTF-8 bytes */
export const MAX_BUNDLE_BYTES = 5_000_000;
/** one file other than skill.md (skill.md has MAX_SKILL_BYTES) */
export const MAX_BUNDLE_FILE_BYTES = 2_000_000;
export const MAX_BUNDLE_PATH_LENGTH = 255;

export type BundleProblemCode =
  | 'bundle_no_skill_md'
  | 'bundle_path_invalid'
  | 'bundle_path_absolute'
  | 'bundle_path_escape'
  | 'bundle_path_vcs'
  | 'bundle_too_many_files'
  | 'bundle_too_large'
  | 'bundle_file_too_large'
  | 'bundle_file_binary'
  | 'bundle_file_not_text'
  | 'bundle_symlink_escape'
  | 'bundle_unreadable'
  | 'skill_md_not_utf8';

/** `line` and `column` (1-based) when the problem is at a place in the file */
export type BundleProblem = { code: BundleProblemCode; path: string; message: string; line?: number; column?: number };

/** UTF-8 length without encoding when it cannot matter */
export function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * Folders of version control: a bundle never holds one, nor a path through one. Written out by
 * `pull` they would be read by the tool — a `.git/config` with `core.fsmonitor`, or a hook, runs
 * a command at the next `git status` or `git commit`. Compared as the tools and file systems do:
 * case-insensitively, trailing dots and spaces ignored (NTFS), and `git~1`, the 8.3 name of `.git`.
 */
export const VCS_FOLDERS = ['.git', '.hg', '.svn', '.bzr', '_darcs', '.fossil-settings', '.fslckout', '_fossil_', 'cvs', '.pijul', '.jj', '.sl', 'git~1'];
const VCS = new Set(VCS_FOLDERS);

/** The version-control folder a path goes through (or is), or null. */
export function vcsSegment(p: string): string | null {
  for (const seg of p.split('/')) if (VCS.has(seg.toLowerCase().replace(/[. ]+$/, ''))) return seg;
  return null;
}

/**
 * Why `p` is not a usable bundle path, or null when it is. Paths are as the
 * bundle's own files name each other: `rendering.py`, `notes/a.txt` — no
 * leading `./` or `/`, no `..`, `.` or empty segments, no backslashes.
 */
export function bundlePathProblem(p: string): BundleProblem | null {
  const bad = (code: BundleProblemCode, why: string): BundleProblem => ({ code, path: p, message: `Bundle path ${JSON.stringify(p)} ${why}` });
  if (p.length === 0) return bad('bundle_path_invalid', 'is empty: name each file by its path inside the bundle, e.g. `rendering.py`.');
  if (p.length > MAX_BUNDLE_PATH_LENGTH) return bad('bundle_path_invalid', `is longer than ${MAX_BUNDLE_PATH_LENGTH} characters.`);
  if (/[\u0000-\u001f\u007f]/.test(p)) return bad('bundle_path_invalid', 'contains a control character (a newline, a tab, NUL…): rename the file.');
  if (p.includes('\\')) return bad('bundle_path_invalid', 'contains a backslash: bundle paths use `/`, e.g. `notes/a.txt`.');
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.startsWith('~')) {
    return bad('bundle_path_absolute', 'is absolute: bundle paths are relative to the bundle folder, e.g. `notes/a.txt`.');
  }
  const segments = p.split('/');
  if (segments.includes('..')) return bad('bundle_path_escape', 'leaves the bundle (`..`): a bundle can only hold files inside its own folder.');
  if (segments.some((s) => s === '' || s === '.')) {
    return bad('bundle_path_invalid', 'has an empty or `.` segment: write it as the plain relative path, e.g. `notes/a.txt`.');
  }
  const vcs = vcsSegment(p);
  if (vcs) {
    return bad(
      'bundle_path_vcs',
      `is inside a version-control folder (\`${vcs}\`): a bundle never holds one — written out by \`pull\`, its config or hooks would run commands in git (or hg, svn…). Remove the file from the bundle.`,
    );
  }
  return null;
}

/** The offset of the first byte that is not part of valid UTF-8, or -1 when all of it is. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    // overlong forms, surrogates and code points past U+10FFFF
    if ((b === 0xe0 && bytes[i + 1] < 0xa0) || (b === 0xed && bytes[i + 1] > 0x9f) || (b === 0xf0 && bytes[i + 1] < 0x90) || (b === 0xf4 && bytes[i + 1] > 0x8f)) return i;
    i += need + 1;
  }
  return -1;
}

/** Text that cannot be a text file: a NUL byte is what every "is this binary" heuristic keys on. */
export function looksBinary(text: string): boolean {
  return text.includes('\0');
}

/**
 * Every problem of a bundle: bad paths, non-text or binary contents, a
 * missing skill.md, and the limits. An empty list means the store can keep it.
 */
export function checkBundle(files: unknown): BundleProblem[] {
  if (files === null || typeof files !== 'object' || Array.isArray(files)) {
    return [{ code: 'bundle_path_invalid', path: '', message: '`files` must be an object mapping each bundle path to its text, e.g. {"skill.md": "---\\n…"}.' }];
  }
  const out: BundleProblem[] = [];
  const entries = Object.entries(files as Record<string, unknown>);
  if (entries.length > MAX_BUNDLE_FILES) {
    out.push({
      code: 'bundle_too_many_files',
      path: '',
      message: `The bundle has ${entries.length} files, over the limit of ${MAX_BUNDLE_FILES}: keep only what the skill runs or reads.`,
    });
  }
  let total = 0;
  for (const [p, content] of entries) {
    const pathProblem = bundlePathProblem(p);
    if (pathProblem) out.push(pathProblem);
    if (typeof content !== 'string') {
      out.push({ code: 'bundle_file_not_text', path: p, message: `${p}: a file's content must be its text (a JSON string), not ${content === null ? 'null' : typeof content}.` });
      continue;
    }
    if (looksBinary(content)) {
      out.push({
        code: 'bundle_file_binary',
        path: p,
        message: `${p} is a binary file: a bundle holds text files only (code, prompts, model scripts, JSON or text data). Remove it, or keep the data as text.`,
      });
    }
    const size = utf8Bytes(content);
    total += size;
    if (p !== SKILL_MD && size > MAX_BUNDLE_FILE_BYTES) {
      out.push({ code: 'bundle_file_too_large', path: p, message: `${p} is ${size} bytes, over the limit of ${MAX_BUNDLE_FILE_BYTES} for one file.` });
    }
  }
  if (total > MAX_BUNDLE_BYTES) {
    out.push({ code: 'bundle_too_large', path: '', message: `The bundle is ${total} bytes, over the limit of ${MAX_BUNDLE_BYTES}: keep large data outside the skill.` });
  }
  if (!Object.prototype.hasOwnProperty.call(files, SKILL_MD)) {
    out.push({ code: 'bundle_no_skill_md', path: SKILL_MD, message: 'The bundle has no skill.md: a skill bundle is skill.md (YAML frontmatter, then the prompts) plus the files it names.' });
  }
  return out;
}

const CODE_FILE = /\.(py|js|mjs|cjs|ts|mts|cts)$/i;

/** A model script: a YAML file of scripted turns (`turns:` at the top level). */
export function isModelScript(p: string, text: string): boolean {
  return /\.ya?ml$/i.test(p) && /^turns\s*:/m.test(text);
}

/** Bundle paths in display order: skill.md, then the code, then model scripts, then data; by path within each. */
export function bundlePaths(files: BundleFiles): string[] {
  const rank = (p: string) => (p === SKILL_MD ? 0 : CODE_FILE.test(p) ? 1 : isModelScript(p, files[p]) ? 2 : 3);
  return Object.keys(files).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The language a file is edited in, by its extension. */
export function languageOf(p: string): string {
  const ext = p.slice(p.lastIndexOf('.') + 1).toLowerCase();
  if (p === SKILL_MD) return 'markdown';
  switch (ext) {
    case 'py':
      return 'python';
    case 'js':
    case 'mjs':
    case 'cjs':
      return 'javascript';
    case 'ts':
    case 'mts':
      return 'typescript';
    case 'json':
      return 'json';
    case 'yaml':
    case 'yml':
      return 'yaml';
    case 'md':
      return 'markdown';
    case 'diff':
    case 'patch':
      return 'diff';
    default:
      return 'plaintext';
  }
}
