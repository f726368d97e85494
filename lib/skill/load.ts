/**
 * Loading a skill bundle from disk: a bundle folder (holding skill.md) or the
 * path of a skill.md itself, read, validated and compiled.
 *
 * Owns: finding and reading the file, with a clear error when it is not
 * there. Does not: validate or compile by itself (compile.ts), or watch files.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../kernel/errors';
import { UsageError } from '../kernel/errors';
import type { Plan } from '../kernel/plan';
import { compileSkill } from './compile';

export type LoadedSkill = {
  plan: Plan;
  text: string;
  /** absolute path of skill.md */
  file: string;
  /** absolute path of the bundle folder */
  bundleDir: string;
  /** warnings (a bundle with errors throws SkillValidationError instead) */
  diagnostics: Diagnostic[];
};

async function isDirectory(p: string): Promise<boolean | undefined> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return undefined;
  }
}

/**
 * Reads and compiles a bundle. Throws UsageError when there is no skill.md
 * there, and SkillValidationError when it has errors.
 */
export async function loadSkillBundle(pathToBundleDirOrSkillMd: string): Promise<LoadedSkill> {
  const given = path.resolve(pathToBundleDirOrSkillMd);
  const kind = await isDirectory(given);
  if (kind === undefined) {
    throw new UsageError(
      `No skill bundle at ${pathToBundleDirOrSkillMd}: the path does not exist. Pass a bundle folder that holds skill.md, or the path of a skill.md.`,
      { path: given },
    );
  }
  const file = kind ? path.join(given, 'skill.md') : given;
  const bundleDir = path.dirname(file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `No skill.md in ${bundleDir}: a skill bundle is a folder holding skill.md (YAML frontmatter, then the prompts). Create it or pass another folder.`
        : `Cannot read ${file}: ${(err as Error).message}.`,
      { path: file },
    );
  }
  const { plan, diagnostics } = compileSkill(text, { file, bundleDir });
  return { plan, text, file, bundleDir, diagnostics };
}
