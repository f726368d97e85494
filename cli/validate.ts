/** `stagecraft validate <bundle|skill.md> [--json]`: located errors and warnings, exit 1 when invalid. */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError, formatDiagnostic } from '../lib/kernel/errors';
import { validateFolder } from '../lib/server/skills/validate-folder';
import { parse } from './args';
import { plural } from '../lib/kernel/plural';
import type { Io } from './main';

export function skillFileOf(target: string): { file: string; bundleDir: string } {
  const abs = path.resolve(target);
  if (!existsSync(abs)) throw new UsageError(`${target} does not exist; pass a bundle folder or its skill.md`);
  const isFolder = statSync(abs).isDirectory();
  // a bundle is read as its folder: any other file named here stood for its folder's skill.md
  // (`validate input.json` said "input.json: valid"; `validate /etc/shadow` walked all of /etc)
  if (!isFolder && path.basename(abs) !== 'skill.md') throw new UsageError(`${target} is not a skill.md; pass a bundle folder or its skill.md`);
  const file = isFolder ? path.join(abs, 'skill.md') : abs;
  if (!existsSync(file)) throw new UsageError(`${target} has no skill.md; a bundle is a folder holding skill.md and the files it names`);
  return { file, bundleDir: path.dirname(file) };
}

export async function validateCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } }, { min: 1, max: 1, names: 'one bundle or skill.md' });
  const { file, bundleDir } = skillFileOf(positionals[0]);
  // the skill as the user named it: an absolute path stays absolute, a relative one reads from here
  const shown = path.isAbsolute(positionals[0]) ? file : path.relative(process.cwd(), file) || file;
  const view = validateFolder(bundleDir, shown);
  if (values.json) io.out(JSON.stringify(view));
  else {
    for (const d of view.diagnostics) io.err(formatDiagnostic(d));
    io.err(view.errors ? `${shown}: ${plural(view.errors, 'error')}, ${plural(view.warnings, 'warning')}` : `${shown}: valid${view.warnings ? ` (${plural(view.warnings, 'warning')})` : ''}`);
  }
  return view.ok ? 0 : 1;
}
