/**
 * Resume interrupted runs: one by id, or every run that has a snapshot; or abort one.
 *
 * The plan is compiled from the bundle's current skill.md when the bundle is
 * still there — so that a skill changed since the crash is caught by the
 * kernel's identity check — and from the recorded text otherwise.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { abortRun, completedOutcome, resumeRun, type RunOutcome } from '../../kernel/runner';
import { systemClock } from '../system';
import type { RunRecord } from '../../kernel/ports';
import { compileSkill } from '../../skill';
import { kernelDeps, modelFor, type Host } from '../host';
import { childRunFns } from './start-run';
import { runChildSkill } from './child-skill';
import { RunNotFoundError } from '../../kernel/errors';

function planFor(run: RunRecord) {
  const file = path.join(run.bundleDir, 'skill.md');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : run.skillText;
  return compileSkill(text, { file, bundleDir: run.bundleDir }).plan;
}

export async function resumeSkillRun(host: Host, runId: string, opts: { model?: string } = {}): Promise<RunOutcome> {
  const run = await host.store.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  // finished: nothing to wire (its model may not even be available here any more)
  const done = completedOutcome(run);
  if (done) return done;
  const model = modelFor(host, opts.model ?? run.model, run.bundleDir);
  const deps = kernelDeps(host, model, {
    runChildSkill: (r) => runChildSkill(host, r, childRunFns),
  });
  try {
    return await resumeRun(runId, planFor, deps);
  } finally {
    await deps.close();
  }
}

/**
 * Ends an interrupted run as aborted (it is then never resumed): for a run nobody can or wants to
 * finish. Its `run_skill` children still running are aborted first, depth first (as a parent's
 * close terminates its children in Temporal): nobody would use what they produce. `children` lists them.
 */
export async function abortSkillRun(host: Host, runId: string, reason: string): Promise<{ outcome: RunOutcome; children: string[] }> {
  const deps = { store: host.store, clock: systemClock };
  const children: string[] = [];
  // an unknown or finished run aborts nothing, its children included: abortRun says why
  if ((await host.store.getRun(runId))?.status !== 'running') return { outcome: await abortRun(runId, reason, deps), children };
  const running = await host.store.listRuns({ status: ['running'] });
  const abortTree = async (id: string, why: string): Promise<RunOutcome> => {
    for (const child of running.filter((r) => r.parentRunId === id)) {
      await abortTree(child.id, `its parent run ${id} was aborted`);
      children.push(child.id);
    }
    return abortRun(id, why, deps);
  };
  return { outcome: await abortTree(runId, reason), children };
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
