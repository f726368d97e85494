/**
 * What a replay, a fork or a regression runs: the skill version it is asked
 * for (a hash, a bundle folder, unsaved files laid over a version), else the
 * skill's latest version — for a run made from a folder of the user's that is
 * still there, the folder as it is now (as a resume takes it); when the skill
 * is gone, the version the run recorded — compiled from its read-only copy;
 * and whether its code may run here.
 *
 * Code of an imported version (origin `import`: someone else's) runs only in
 * the sandbox. Where no sandbox works, the CLI runs it only when told to
 * (`--trust`); the app never does (it never passes `trust`).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Plan, StepSpec } from '../../kernel/plan';
import type { RunRecord } from '../../kernel/ports';
import { RunNotFoundError, RunStillRunningError, SkillMismatchError, SkillNotFoundError, UntrustedCodeError, VersionNotFoundError } from '../../kernel/errors';
import type { BundleFiles } from '../../skill/bundle';
import { bundleHash } from '../../store/skills';
import type { VersionOrigin } from '../../store/skills';
import type { Host } from '../host';
import { readSkillMdIn } from '../skills/bundle-dir';
import { materializeVersion } from '../skills/materialize';
import { skillMdFacts } from '../skills/skill-text';
import { asSkill, compileCopy } from './compiled-copies';
import { prepareFolder } from './start-run';
import { isStoredCopy } from './child-skill';

export type VersionChoice = {
  /** a version hash (or a unique prefix) of the run's skill */
  version?: string;
  /** a bundle folder (the CLI): recorded as a version of its skill, as `run DIR` does */
  skillDir?: string;
  /** unsaved files laid over the chosen version (the editor's text) */
  files?: BundleFiles;
  /** the version to use when none is asked for and the skill is gone */
  fallbackVersionId?: string | null;
  /**
   * the run's own bundle folder: when the run was made from a folder of the user's (the CLI) that is
   * still there, "the latest version" is that folder as it is now — as a resume takes it — so a fix
   * made in the folder is what a replay checks and a rerun runs
   */
  runBundleDir?: string;
  /**
   * the run a `skillDir` (or its own `runBundleDir`) is for: the folder must hold the same skill — its name, or the name the run's
   * own skill.md gave (a skill pushed under another name), or its version's skill's name now (renamed since) — checked before the folder
   * is recorded as a version of anything
   */
  forRun?: Pick<RunRecord, 'id' | 'skillText'>;
};

export type ChosenVersion = {
  plan: Plan;
  files: BundleFiles;
  hash: string;
  /** null for unsaved files */
  versionId: string | null;
  origin: VersionOrigin | 'folder' | 'unsaved';
  copyDir: string;
  /** what the run records as its bundle: the folder, else the copy */
  bundleDir: string;
  /** a folder's files recorded as a new version just now (origin `folder` only) */
  isNew?: true;
};

/** A run that has ended (replay, fork and export work on a finished record). */
export async function endedRun(host: Pick<Host, 'store'>, runId: string): Promise<RunRecord> {
  const run = await host.store.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  if (run.status === 'running') throw new RunStillRunningError(runId);
  return run;
}

export async function chooseVersion(host: Host, skill: string, choice: VersionChoice): Promise<ChosenVersion> {
  const folder = choice.skillDir ?? (choice.version === undefined && !choice.files ? await userFolderOf(host, choice) : undefined);
  if (folder !== undefined) {
    // the run's own folder too: it may have been given another skill's skill.md since the run
    if (choice.forRun) await requireSameSkill(host, skill, folder, choice.forRun, choice.fallbackVersionId, choice.skillDir === undefined);
    const p = await prepareFolder(host, folder);
    return { plan: p.plan, files: p.files, hash: bundleHash(p.files), versionId: p.versionId, origin: 'folder', copyDir: p.copyDir, bundleDir: p.origin, ...(p.isNew ? { isNew: p.isNew } : {}) };
  }
  let v;
  if (choice.version !== undefined) v = await host.skills.getVersion(skill, choice.version);
  else {
    try {
      v = await host.skills.getVersion(skill);
    } catch (e) {
      // the skill was deleted (or never stored here): the version the run recorded
      if (!(e instanceof SkillNotFoundError || e instanceof VersionNotFoundError) || !choice.fallbackVersionId) throw e;
      v = await host.skills.getVersionById(choice.fallbackVersionId);
      if (!v) throw e;
    }
  }
  if (choice.files && Object.keys(choice.files).length) {
    const files = { ...v.files, ...choice.files };
    const hash = bundleHash(files);
    const copyDir = materializeVersion(host.bundlesDir, { hash, files });
    return { plan: asSkill(compileCopy(files, copyDir, 'skill.md'), v.skillName), files, hash, versionId: null, origin: 'unsaved', copyDir, bundleDir: copyDir };
  }
  const copyDir = materializeVersion(host.bundlesDir, v);
  return { plan: asSkill(compileCopy(v.files, copyDir, 'skill.md'), v.skillName), files: v.files, hash: v.hash, versionId: v.id, origin: v.origin, copyDir, bundleDir: copyDir };
}

/**
 * A `--skill` folder of another skill than the run's is refused, and so is the run's own folder (used when no version is asked for) once it holds another skill; one whose skill.md cannot be read is left to prepareFolder to say so.
 * The run's skill is known by the name it ran under, the name its skill.md gave, and the name its version's skill has now (a skill
 * renamed in the studio keeps its runs under the old name; `pull NEW` gives a folder of the new one).
 */
async function requireSameSkill(
  host: Pick<Host, 'cwd' | 'skills'>,
  skill: string,
  dir: string,
  run: Pick<RunRecord, 'id' | 'skillText'>,
  versionId: string | null | undefined,
  isRunFolder: boolean,
): Promise<void> {
  let text: string | null;
  try {
    const given = path.resolve(host.cwd, dir);
    // read as the bundle is (readSkillMdIn): a FIFO code made there held the host in its open, then gave it code's text
    text = statSync(given).isDirectory() ? readSkillMdIn(given, path.join(given, 'skill.md')) : readSkillMdIn(path.dirname(given), given);
  } catch {
    return;
  }
  if (text === null) return;
  const name = skillMdFacts(text).name;
  if (name === null || name === skill || name === skillMdFacts(run.skillText).name) return;
  const recorded = versionId ? await host.skills.getVersionById(versionId) : null;
  if (recorded?.skillName === name) return;
  throw new SkillMismatchError(run.id, skill, dir, name, isRunFolder ? { hash: recorded?.hash ?? null } : undefined);
}

/** The run's folder when it is one of the user's, still there, and the run was made here (not imported). */
async function userFolderOf(host: Host, choice: VersionChoice): Promise<string | undefined> {
  const dir = choice.runBundleDir;
  if (!dir || isStoredCopy(host, dir) || !existsSync(path.join(dir, 'skill.md'))) return undefined;
  const recorded = choice.fallbackVersionId ? await host.skills.getVersionById(choice.fallbackVersionId) : null;
  return recorded?.origin === 'import' ? undefined : dir;
}

/** Whether a plan has code of its skill's own to run: python/node steps or module capabilities. */
export function planRunsCode(plan: Plan): boolean {
  const steps = (list: readonly StepSpec[]): boolean => list.some((s) => s.type === 'python' || s.type === 'node' || (s.type === 'iterate' && steps(s.steps)));
  if (plan.stageProgram.some((s) => s.binding.kind === 'module')) return true;
  if (plan.postprocessor && steps(plan.postprocessor.steps)) return true;
  return Object.values(plan.phases).some((p) => p.preprocessor !== null && steps(p.preprocessor.steps));
}

/** Imported code runs in the sandbox; without one, only with `trust` (never in the app). */
export function requireTrustedCode(host: Pick<Host, 'isolation'>, chosen: ChosenVersion, opts: { trust?: boolean; what: string }): void {
  if (chosen.origin !== 'import' || !planRunsCode(chosen.plan) || opts.trust) return;
  const isolation = host.isolation();
  if (isolation.kind !== 'none') return;
  throw new UntrustedCodeError(
    `${opts.what} runs code of an imported skill version (${chosen.hash.slice(0, 12)}), and code steps cannot be sandboxed here: ${isolation.reason}. ` +
      'Install bubblewrap where user namespaces are allowed, or — from the command line only, and only if you trust whoever made the file — pass --trust.',
    { version: chosen.hash },
  );
}
