/**
 * `run_skill` as the host runs it. For a run of a bundle folder (the CLI), the
 * child is a sibling folder of the calling bundle (a folder name, or a
 * relative path that stays in the same workspace folder); for a run of a
 * stored version (the app), the child is the stored skill of that name, at its
 * latest version. Either way it runs as a run of its own linked by
 * `parentRunId`, named after the parent run and the calling step — so a
 * parent resumed after a crash finds its child (reuses its output, or resumes
 * it) instead of starting it again. Nesting is bounded.
 */
import path from 'node:path';
import type { ChildSkillRequest } from '../../kernel/context';
import { StepFailedError } from '../../kernel/errors';
import type { Json } from '../../kernel/json';
import { sha256 } from '../../kernel/memo';
import type { RunOutcome } from '../../kernel/runner';
import type { Host } from '../host';
import { isSkillName } from '../../skill/schema';

/** run_skill inside run_skill inside … at most this deep */
export const MAX_SKILL_DEPTH = 5;

export function resolveChildBundle(ref: string, fromBundleDir: string): string {
  const workspace = path.dirname(fromBundleDir);
  if (path.isAbsolute(ref)) throw new StepFailedError('op_bad_args', `run_skill: "${ref}" must name a bundle of this workspace (a folder beside this one), not an absolute path`);
  const target = ref.startsWith('.') || ref.includes('/') ? path.resolve(fromBundleDir, ref) : path.resolve(workspace, ref);
  if (path.dirname(target) !== workspace) {
    throw new StepFailedError('op_bad_args', `run_skill: "${ref}" is outside this workspace; name a bundle folder beside ${path.basename(fromBundleDir)}`);
  }
  return target;
}

export function childRunId(req: ChildSkillRequest): string {
  return `${req.parentRunId}.${sha256(req.position).slice(0, 10)}`;
}

async function depthOf(host: Host, runId: string): Promise<number> {
  let depth = 0;
  for (let id: string | null = runId; id && depth <= MAX_SKILL_DEPTH; depth++) {
    const run = await host.store.getRun(id);
    // a replay or a fork is a run of its own, not a call: its parent is not a caller
    id = run?.kind === 'run' ? run.parentRunId : null;
  }
  return depth;
}

export type RunFns = {
  /** `bundle` (a folder) or `skill` (a stored skill) */
  start: (host: Host, req: { bundle?: string; skill?: string; input: ChildSkillRequest['input']; parentRunId: string; runId: string }) => Promise<RunOutcome>;
  resume: (host: Host, runId: string) => Promise<RunOutcome>;
};

/** Whether a run's bundle is a stored version's copy (the app), not a folder of the user's. */
export function isStoredCopy(host: Pick<Host, 'bundlesDir'>, bundleDir: string): boolean {
  const rel = path.relative(host.bundlesDir, bundleDir);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The stored skill a run_skill of a stored run names: a skill name, nothing else. */
async function resolveStoredChild(host: Host, ref: string): Promise<string> {
  if (!isSkillName(ref)) {
    throw new StepFailedError('op_bad_args', `run_skill: "${ref}" is not a skill name; name another skill of this workspace (e.g. summarize)`);
  }
  if (!(await host.skills.skillNames()).includes(ref)) throw new StepFailedError('op_bad_args', `run_skill: there is no skill named ${ref}; create it, or fix the name`);
  return ref;
}

export async function runChildSkill(host: Host, req: ChildSkillRequest, fns: RunFns): Promise<Json> {
  const target = isStoredCopy(host, req.fromBundleDir) ? { skill: await resolveStoredChild(host, req.skill) } : { bundle: resolveChildBundle(req.skill, req.fromBundleDir) };
  if ((await depthOf(host, req.parentRunId)) >= MAX_SKILL_DEPTH) {
    throw new StepFailedError('skill_depth_exceeded', `run_skill ${req.skill}: skills nested more than ${MAX_SKILL_DEPTH} deep (does a skill call itself?)`);
  }
  const runId = childRunId(req);
  const existing = await host.store.getRun(runId);
  let out: RunOutcome;
  if (!existing) out = await fns.start(host, { ...target, input: req.input, parentRunId: req.parentRunId, runId });
  else if (existing.status === 'completed') return existing.output;
  else if (existing.status === 'running') out = await fns.resume(host, runId);
  else out = { runId, status: existing.status, output: existing.output, error: existing.error, report: null };
  if (out.status !== 'completed') {
    throw new StepFailedError('child_skill_failed', `run_skill ${req.skill}: the child run ${out.runId} ${out.status}${out.error ? `: ${String(out.error.message)}` : ''}`, {
      childRunId: out.runId,
    });
  }
  return out.output;
}
