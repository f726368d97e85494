/**
 * Plans compiled from versions' read-only copies (skills/materialize.ts), kept by copy folder and
 * shown file, and the folder check a copy's compile can stand in for.
 *
 * Owns: compiling a copy once (a version never changes, so neither does its plan: a burst of runs
 * of one version compiles it once), and what that compile asked about files, so that
 * `checkedFromCopy` can tell when compiling the author's folder would find exactly the same — the
 * CLI's `run DIR` then compiles the skill once, not once for its copy and once for its folder.
 * Does not: read or copy folders (bundle-dir.ts, materialize.ts), or decide what a run records
 * (start-run.ts).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Plan } from '../../kernel/plan';
import type { BundleFiles } from '../../skill/bundle';
import { compileSkill } from '../../skill/compile';

/**
 * A copy's plan, and the bundle files its compile asked about (all found in the version), or null
 * when it asked anything a folder's compile could answer otherwise than by those files being there
 * (a file missing, a path outside the bundle, a run_skill target).
 */
type CompiledCopy = { plan: Plan; asked: string[] | null };

const compiledCopies = new Map<string, CompiledCopy>();
const COMPILED_COPIES_KEPT = 64;

const keyOf = (copyDir: string, shownFile: string) => `${copyDir}\0${shownFile}`;

/**
 * A stored version's plan under the name of the skill it is a version of: its runs are recorded,
 * listed, replayed and forked as that skill, whatever `name:` its skill.md says (the validator's
 * name_mismatch warning: a folder pushed with --name, a skill.md pasted from another skill).
 */
export const asSkill = (plan: Plan, skill: string): Plan => (plan.name === skill ? plan : { ...plan, name: skill });

/** Compiles the copy of a version (once per copy); findings name `shownFile` (what the user knows the file as). */
export function compileCopy(files: BundleFiles, copyDir: string, shownFile: string): Plan {
  const key = keyOf(copyDir, shownFile);
  const cached = compiledCopies.get(key);
  if (cached) {
    // most recently used last: the oldest is the first to go
    compiledCopies.delete(key);
    compiledCopies.set(key, cached);
    return cached.plan;
  }
  const compiled = compileFiles(files, copyDir, shownFile);
  compiledCopies.set(key, compiled);
  if (compiledCopies.size > COMPILED_COPIES_KEPT) compiledCopies.delete(compiledCopies.keys().next().value as string);
  return compiled.plan;
}

function compileFiles(files: BundleFiles, copyDir: string, shownFile: string): CompiledCopy {
  let asked: string[] | null = [];
  const plan = compileSkill(files['skill.md'] ?? '', {
    file: shownFile,
    bundleDir: copyDir,
    // the copy is exactly `files`; run_skill targets are resolved when the step runs
    fileExists: (p) => {
      const rel = path.relative(copyDir, p).split(path.sep).join('/');
      const inVersion = Object.prototype.hasOwnProperty.call(files, rel);
      if (inVersion) asked?.push(rel);
      else asked = null;
      return inVersion || rel.endsWith('skill.md');
    },
  }).plan;
  return { plan, asked };
}

/** `p` is a file, as the skill checks' own default `fileExists` (validate.ts) asks the disk */
function isFile(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

/**
 * What compiling a folder's skill.md against the folder `dir` would find (its name, no error),
 * taken from the compile of its copy `copyDir` (named by the files' hash, so made from the same
 * files) with the same `shownFile`, when that is made already: null when it is not, or when the
 * folder's compile could find otherwise — the copy's asked about a file outside the bundle or a
 * missing one, or a file it found is no longer a file in `dir`. The plan's paths are the copy's.
 */
export function checkedFromCopy(copyDir: string, dir: string, shownFile: string): Plan | null {
  const cached = compiledCopies.get(keyOf(copyDir, shownFile));
  if (!cached?.asked) return null;
  for (const rel of cached.asked) if (!isFile(path.join(dir, ...rel.split('/')))) return null;
  return cached.plan;
}
