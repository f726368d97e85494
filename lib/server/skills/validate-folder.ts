/**
 * `stagecraft validate DIR`: a bundle folder validated as the app validates a
 * stored bundle — its files read as a bundle (a binary file, a symlink out of
 * the folder or a limit is a finding too), then the same analysis, with the
 * sibling folders holding a skill.md as the skills `run_skill` may name.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../../kernel/errors';
import { bundleProblemDiagnostic } from '../../skill/analyze-bundle';
import { checkBundle } from '../../skill/bundle';
import type { ValidationView } from '../../views';
import { readBundleDir } from './bundle-dir';
import { validateFiles, validationView } from './validate-bundle';

/** the bundle folders beside `dir` (what run_skill names from it) */
export function siblingSkills(dir: string): string[] {
  const parent = path.dirname(path.resolve(dir));
  try {
    return readdirSync(parent).filter((name) => existsSync(path.join(parent, name, 'skill.md')));
  } catch {
    return [];
  }
}

/** what readBundleDir says of a file it found and would not take */
const REFUSED_READS = new Set(['bundle_file_binary', 'bundle_unreadable', 'bundle_file_too_large']);

export function validateFolder(dir: string, shownFile: string): ValidationView {
  const { files, problems } = readBundleDir(dir);
  // a file the folder holds but reading refused (binary, unreadable, too large) is that problem, not a module named that is missing
  const refused = new Set(problems.filter((p) => REFUSED_READS.has(p.code)).map((p) => p.path));
  const view = validateFiles(files, { file: shownFile, knownSkills: siblingSkills(dir), refused });
  // what the analysis cannot see: the files reading the folder left out (binary, symlinked out, too large)
  const inFiles = checkBundle(files);
  const shownDir = path.dirname(shownFile);
  const extra: Diagnostic[] = problems
    .filter((p) => !inFiles.some((q) => q.code === p.code && q.path === p.path))
    .map((p) => bundleProblemDiagnostic(p, (at) => (at ? path.join(shownDir, at) : shownDir)));
  // a skill.md that could not be read as text (not UTF-8, over its size limit) is that finding, not also a missing skill.md
  const unreadable = problems.some((p) => p.path === 'skill.md' && p.code !== 'bundle_no_skill_md');
  const kept = unreadable ? view.diagnostics.filter((d) => d.rule !== 'bundle_no_skill_md') : view.diagnostics;
  // the analysis locates a bundle file's problem by its bundle path (`sanitize.py`): here, under the folder as named, as `extra`'s are
  const own = kept.map((d) => (inFiles.some((q) => q.code === d.rule && q.path === d.file && q.path !== 'skill.md') ? { ...d, file: path.join(shownDir, d.file) } : d));
  return extra.length || own.some((d, i) => d !== kept[i]) ? validationView([...extra, ...own], shownFile) : view;
}
