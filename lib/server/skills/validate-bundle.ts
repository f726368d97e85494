/**
 * Validating a bundle as `stagecraft validate --json` and `POST /api/validate`
 * report it: every finding of skill.md (including cross-file ones, such as a
 * `module:` that names no file of the bundle) and of the bundle itself, as
 * one ValidationView.
 */
import type { Diagnostic } from '../../kernel/errors';
import { analyzeBundle } from '../../skill/analyze-bundle';
import type { BundleFiles } from '../../skill/bundle';
import type { ValidationView } from '../../views';

export function validationView(diagnostics: Diagnostic[], file: string): ValidationView {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return { ok: errors === 0, file, errors, warnings: diagnostics.length - errors, diagnostics };
}

export type ValidateFilesOptions = {
  /** the name skill.md findings carry (default `skill.md`) */
  file?: string;
  /** the skills `run_skill` may name; undefined: not checked */
  knownSkills?: readonly string[];
  /** the stored skill this bundle is (or will be) a version of: a different frontmatter `name` is a warning */
  skillName?: string;
  /** paths a folder holds whose reading was refused (said as that problem, not as a file missing) */
  refused?: ReadonlySet<string>;
};

export function validateFiles(files: BundleFiles, opts: ValidateFilesOptions = {}): ValidationView {
  const file = opts.file ?? 'skill.md';
  return validationView(analyzeBundle(files, { file, knownSkills: opts.knownSkills, skillName: opts.skillName, refused: opts.refused }).diagnostics, file);
}
