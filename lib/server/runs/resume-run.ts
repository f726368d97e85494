/**
 * Resume interrupted runs: one by id, or every run that has a snapshot; or abort one.
 *
 * What a resumed run executes:
 * - a run of a stored version (the app) resumes with that version, from its read-only copy: the
 *   skill may have been edited since, the version has not;
 * - a run of a bundle folder (the CLI) resumes with the folder as it is now, recorded as a version
 *   as a start records it — so a fix made after a crash is picked up, and a change to what was
 *   already recorded is caught by the kernel's identity check (as DBOS and Temporal check code);
 *   when the folder is gone, with the version it recorded;
 * - a queued run (recorded, not started: a worker's, or one waiting for room) starts with the version
 *   recorded when it was queued;
 * - a run recorded before versions held whole bundles, with its recorded skill.md text.
 *
 * A replay or a fork resumes as it started: the kernel reads its parent's log again (its first event
 * names the parent and the fork point), so what it answered from the recording it answers again.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { abortRun, completedOutcome, isUnfinished, resumeRun, type AbortPending, type RunOutcome } from '../../kernel/runner';
import { systemClock } from '../system';
import type { RunRecord } from '../../kernel/ports';
import type { Plan } from '../../kernel/plan';
import { compileSkill } from '../../skill/compile';
import { kernelDeps, modelFor, type Host } from '../host';
import { materializeVersion } from '../skills/materialize';
import { compileCopy } from './compiled-copies';
import { childRunFns, endTraced, prepareFolder } from './start-run';
import { isStoredCopy, runChildSkill } from './child-skill';
import { RunNotFoundError } from '../../kernel/errors';
import type { JsonObject } from '../../kernel/json';
import { checkModelSpec, createReplayModel } from '../../models';

async function planFor(host: Host, run: RunRecord): Promise<Plan> {
  // a queued run has not started: it runs the version recorded when it was queued, not the folder as it is now
  const isFolderRun = run.status !== 'queued' && !isStoredCopy(host, run.bundleDir);
  if (isFolderRun && existsSync(path.join(run.bundleDir, 'skill.md'))) return (await prepareFolder(host, run.bundleDir)).plan;
  const v = run.skillVersionId ? await host.skills.getVersionById(run.skillVersionId) : null;
  // a version recorded before bundles (skill.md alone) cannot hold the run's code: its text, where it ran
  if (v && !(v.fileCount === 1 && existsSync(path.join(run.bundleDir, 'skill.md')))) {
    return compileCopy(v.files, materializeVersion(host.bundlesDir, v), 'skill.md');
  }
  return compileSkill(run.skillText, { file: path.join(run.bundleDir, 'skill.md'), bundleDir: run.bundleDir }).plan;
}

/** `driver` and `signal` as in KernelDeps: who drives this execution, and when it must let go (a worker) */
export type ResumeOptions = { model?: string; driver?: JsonObject; signal?: AbortSignal };

export async function resumeSkillRun(host: Host, runId: string, opts: ResumeOptions = {}): Promise<RunOutcome> {
  // a spec that names no model is the caller's mistake whatever the run's state (a completed run ignored it)
  if (opts.model !== undefined) checkModelSpec(opts.model);
  const run = await host.store.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  // finished: nothing to wire (its model may not even be available here any more)
  const done = completedOutcome(run);
  if (done) return done;
  // the plan first: it puts the version's copy (and so its model script) back in place
  const plan = await planFor(host, run);
  // a replay asks no model (its recording answers every turn): its recorded name is not a spec
  const model = run.kind === 'replay' && !opts.model ? createReplayModel([], { name: run.model }) : modelFor(host, opts.model ?? localModelSpec(run.model, plan.bundleDir), plan.bundleDir);
  const deps = kernelDeps(host, model, { runId, bundleDir: plan.bundleDir }, {
    runChildSkill: (r) => runChildSkill(host, { ...r, fromBundleDir: run.bundleDir }, childRunFns),
    ...(opts.driver ? { driver: opts.driver } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  try {
    return endTraced(host, deps.driver, await resumeRun(runId, () => plan, deps));
  } finally {
    await deps.close();
  }
}

/**
 * A recorded `scripted:` model as this machine has it: a script inside a version's copy
 * (`…/bundles/<hash>/model.yaml`) made by another process, under another data dir, is the same file
 * of this process's copy of that version.
 */
export function localModelSpec(spec: string, bundleDir: string): string {
  const m = /^scripted:(.*[\\/]bundles[\\/]([0-9a-f]{64})[\\/](.+))$/.exec(spec);
  if (!m || existsSync(m[1]) || path.basename(bundleDir) !== m[2]) return spec;
  return `scripted:${path.join(bundleDir, m[3])}`;
}

/**
 * Ends a run as aborted (it is then never resumed): one nobody can or wants to finish, interrupted
 * or still being driven. Its `run_skill` children still running are aborted too, depth first (as a
 * parent's close terminates its children in Temporal): nobody would use what they produce.
 * `children` lists them. A run another process drives answers `aborting`: the request is
 * recorded, and its driver ends it within moments (abortRun).
 */
export async function abortSkillRun(
  host: Host,
  runId: string,
  reason: string,
  /** `via`: app or cli; `requestedBy`: who asks (`cli (user dana)`, `app`) — recorded with the abort, and the run's report names them */
  opts: { via?: 'app' | 'cli'; requestedBy?: string } = {},
): Promise<{ outcome: RunOutcome | AbortPending; children: string[] }> {
  const deps = { store: host.store, clock: systemClock };
  const children: string[] = [];
  // an unknown or finished run aborts nothing, its children included: abortRun says why
  const run = await host.store.getRun(runId);
  if (!run || !isUnfinished(run.status)) return { outcome: await abortRun(runId, reason, deps, opts), children };
  const running = await host.store.listRuns({ status: ['running', 'queued'] });
  // the parent's request first: a driver busy in a run_skill step is stopped by it, not by its child's end
  const tree = (id: string): string[] => running.filter((r) => r.parentRunId === id && r.kind === 'run').flatMap((c) => [...tree(c.id), c.id]);
  const descendants = tree(runId);
  if (descendants.length) await host.store.requestAbort({ runId, reason, requestedBy: opts.requestedBy ?? opts.via ?? 'a caller that did not say', via: opts.via ?? null, requestedAt: systemClock.now() });
  for (const id of descendants) {
    const parent = running.find((r) => r.id === id)?.parentRunId;
    await abortRun(id, `its parent run ${parent} was aborted`, deps, opts).catch((e) => {
      // a child that ended meanwhile has nothing left to abort
      if ((e as { code?: string }).code !== 'run_finished') throw e;
    });
    children.push(id);
  }
  const outcome = await abortRun(runId, reason, deps, opts).catch(async (e) => {
    // its driver, told by the request above, has ended it meanwhile: that is this abort landing
    const now = descendants.length && (e as { code?: string }).code === 'run_finished' ? await host.store.getRun(runId) : null;
    if (now?.status !== 'aborted') throw e;
    return { runId, status: 'aborted' as const, output: null, error: now.error, report: now.report as RunOutcome['report'] };
  });
  return { outcome, children };
}

export type ResumeResult = { runId: string; outcome?: RunOutcome; error?: unknown };

/**
 * Resume every resumable run (or these, already listed by the caller), one after the other; a
 * failure to resume one does not stop the others. `onResult` hears of each as it ends (progress
 * for a long list), before the whole list comes back.
 */
export async function resumeAllRuns(
  host: Host,
  runIds?: readonly string[],
  onResult?: (r: ResumeResult, index: number, total: number) => void,
): Promise<ResumeResult[]> {
  const out: ResumeResult[] = [];
  const ids = runIds ?? (await host.store.listResumable());
  for (const runId of ids) {
    let r: ResumeResult;
    try {
      r = { runId, outcome: await resumeSkillRun(host, runId) };
    } catch (error) {
      r = { runId, error };
    }
    out.push(r);
    onResult?.(r, out.length - 1, ids.length);
  }
  return out;
}
