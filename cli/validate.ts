/** `stagecraft validate <bundle|skill.md> [--json]`: located errors and warnings, exit 1 when invalid. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError, formatDiagnostic } from '../lib/kernel/errors';
import { validateSkill } from '../lib/skill';
import { parse } from './args';
import type { Io } from './main';

export function skillFileOf(target: string): { file: string; bundleDir: string } {
  const abs = path.resolve(target);
  if (!existsSync(abs)) throw new UsageError(`${target} does not exist; pass a bundle folder or its skill.md`);
  const file = statSync(abs).isDirectory() ? path.join(abs, 'skill.md') : abs;
  if (!existsSync(file)) throw new UsageError(`${target} has no skill.md; a bundle is a folder holding skill.md and the files it names`);
  return { file, bundleDir: path.dirname(file) };
}

export async function validateCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } }, { min: 1, max: 1, names: 'one bundle or skill.md' });
  const { file, bundleDir } = skillFileOf(positionals[0]);
  const shown = path.relative(process.cwd(), file) || file;
  const { diagnostics } = validateSkill(readFileSync(file, 'utf8'), { file: shown, bundleDir });
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (values.json) {
    io.out(JSON.stringify({ ok: errors.length === 0, file: shown, errors: errors.length, warnings: diagnostics.length - errors.length, diagnostics }));
  } else {
    for (const d of diagnostics) io.err(formatDiagnostic(d));
    io.err(errors.length ? `${shown}: ${errors.length} error(s), ${diagnostics.length - errors.length} warning(s)` : `${shown}: valid${diagnostics.length ? ` (${diagnostics.length} warning(s))` : ''}`);
  }
  return errors.length ? 1 : 0;
}
