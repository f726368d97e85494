/**
 * What a replay, a fork or a regression runs: the skill version it is asked
 * for (a hash, a bundle folder, unsaved files laid over a version), else the
 * skill's latest version — or, when the skill is gone, the version the run
 * recorded — compiled from its read-only copy; and whether its code may run
 * here.
 *
 * Code of an imported version (origin `import`: someone else's) runs only in
 * the sandbox. Where no sandbox works, the CLI runs it only when told to
 * (`--trust`); the app never does (it never passes `trust`).
 */
import type { Plan, StepSpec } from '../../kernel/plan';
import type { RunRecord } from '../../kernel/ports';
import { RunNotFoundError, RunStillRunningError, SkillNotFoundError, UntrustedCodeError, VersionNotFoundError } from '../../kernel/errors';
import type { BundleFiles } from '../../skill/bundle';
import { bundleHash } from '../../store/skills';
import type { VersionOrigin } from '../../store/skills';
import type { Host } from '../host';
import { materializeVersion } from '../skills/materialize';
import { compileCopy, prepareFolder } from './start-run';

export type VersionChoice = {
  /** a version hash (or a unique prefix) of the run's skill */
  version?: string;
  /** a bundle folder (the CLI): recorded as a version of its skill, as `run DIR` does */
  skillDir?: string;
  /** unsaved files laid over the chosen version (the editor's text) */
  files?: BundleFiles;
  /** the version to use when none is asked for (default: the skill's latest) */
  fallbackVersionId?: string | null;
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
};

/** A run that has ended (replay, fork and export work on a finished record). */
export async function endedRun(host: Pick<Host, 'store'>, runId: string): Promise<RunRecord> {
  const run = await host.store.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  if (run.status === 'running') throw new RunStillRunningError(runId);
  return run;
}

export async function chooseVersion(host: Host, skill: string, choice: VersionChoice): Promise<ChosenVersion> {
  if (choice.skillDir !== undefined) {
    const p = await prepareFolder(host, choice.skillDir);
    return { plan: p.plan, files: p.files, hash: bundleHash(p.files), versionId: p.versionId, origin: 'folder', copyDir: p.copyDir, bundleDir: p.origin };
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
    return { plan: compileCopy(files, copyDir, 'skill.md'), files, hash, versionId: null, origin: 'unsaved', copyDir, bundleDir: copyDir };
  }
  const copyDir = materializeVersion(host.bundlesDir, v);
  return { plan: compileCopy(v.files, copyDir, 'skill.md'), files: v.files, hash: v.hash, versionId: v.id, origin: v.origin, copyDir, bundleDir: copyDir };
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
