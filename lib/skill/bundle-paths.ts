/**
 * Paths inside a skill bundle: `module:` of code steps, `uses: ./file#export`
 * of capabilities, `run_skill` targets.
 *
 * Owns: the rule that a bundle path is relative, stays inside the bundle after
 * `.`/`..` are resolved, has an extension its language can load, and exists.
 * Paths are POSIX and handled by hand (not node:path) so the validator also
 * runs in the browser editor; existence goes through the caller's
 * `fileExists`. Does not: read files or resolve symlinks (the sandbox confines
 * what code can reach at run time).
 */
import type { Findings } from './rules';
import type { KeyPath } from './source';

export type FileExists = (absolutePath: string) => boolean;

/** The text of a bundle file (asked as `fileExists` is), or undefined when it cannot be read as text. */
export type ReadBundleText = (absolutePath: string) => string | undefined;

/**
 * The `bundleDir` of a bundle held in memory as a files map (the editor, the
 * API) rather than as a folder. `fileExists` is then asked bundle paths as the
 * map names them (`rendering.py`, `lib/x.py`), a `run_skill` target `t` is
 * asked as `../t/skill.md` (a sibling bundle), and messages speak of "the
 * bundle" and of skills of the workspace instead of folders.
 */
export const IN_MEMORY_BUNDLE = '';

export function isInMemoryBundle(bundleDir: string): boolean {
  return bundleDir === IN_MEMORY_BUNDLE;
}

export const PYTHON_EXTENSIONS = ['.py'];
export const NODE_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts'];

export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || p.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('~');
}

/** Resolves `.` and `..` in a POSIX path; a leading `..` that cannot be resolved is kept. */
export function normalizePath(p: string): string {
  const isAbs = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.replace(/\\/g, '/').split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!isAbs) out.push('..');
    } else out.push(seg);
  }
  return (isAbs ? '/' : '') + out.join('/');
}

export function joinPath(...parts: string[]): string {
  return normalizePath(parts.filter((x) => x !== '').join('/'));
}

export function dirnamePath(p: string): string {
  const n = normalizePath(p);
  const i = n.lastIndexOf('/');
  if (i < 0) return '.';
  return i === 0 ? '/' : n.slice(0, i);
}

/** `bundleDir` joined with a relative bundle path. */
export function bundleFile(bundleDir: string, relative: string): string {
  return joinPath(bundleDir, relative);
}

export type ModuleKind = 'python' | 'node';

/**
 * Checks one module path; adds findings at `path` (the value node that holds
 * it). Returns whether the path is usable (relative, inside, right extension).
 */
export function checkModulePath(
  findings: Findings,
  opts: { modulePath: string; kind: ModuleKind; what: string; path: KeyPath; bundleDir: string; fileExists: FileExists },
): boolean {
  const { modulePath: m, kind, what, path } = opts;
  if (isAbsolutePath(m)) {
    findings.add(
      'module_path_absolute',
      `${what} \`${m}\` is an absolute path: bundle paths are relative to the bundle folder, e.g. \`./${m.split(/[\\/]/).pop() ?? 'module'}\`.`,
      path,
    );
    return false;
  }
  const normal = normalizePath(m);
  if (normal === '..' || normal.startsWith('../') || normal === '') {
    findings.add(
      'module_path_escape',
      `${what} \`${m}\` leaves the bundle folder: a skill can only run code it ships. Copy the file into the bundle and name it as \`./<file>\`.`,
      path,
    );
    return false;
  }
  const exts = kind === 'python' ? PYTHON_EXTENSIONS : NODE_EXTENSIONS;
  if (!exts.some((e) => normal.toLowerCase().endsWith(e))) {
    findings.add(
      'module_extension',
      kind === 'python'
        ? `${what} \`${m}\` is not a .py file: a python step loads a Python module; name the .py file (or use a node step for JavaScript).`
        : `${what} \`${m}\` is not a ${NODE_EXTENSIONS.join('/')} file: Node loads only those; rename the module or point at the right file.`,
      path,
    );
    return false;
  }
  if (!opts.fileExists(bundleFile(opts.bundleDir, normal))) {
    findings.add(
      'module_not_found',
      isInMemoryBundle(opts.bundleDir)
        ? `${what} \`${m}\` does not exist in the bundle: add a file \`${normal}\` or fix the path.`
        : `${what} \`${m}\` does not exist in the bundle folder (${opts.bundleDir}): create it, or fix the path.`,
      path,
    );
  }
  return true;
}
