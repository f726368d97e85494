/**
 * `run_skill` as the host runs it. For a run of a bundle folder (the CLI), the
 * child is a sibling folder of the calling bundle (a folder name, or a
 * relative path that stays in the same workspace folder); for a run of a
 * stored version (the app), the child is the stored skill of that name, at its
 * latest version. Either way it runs as a run of its own linked by
 * `parentRunId`, named after the parent run and the calling step — so a
 * parent resumed after a crash finds its child (reuses its output, or resumes
 * it) instead of starting it again. Nesting is bounded, and so is breadth: a
 * root run starts at most STAGECRAFT_MAX_DESCENDANTS runs (default 100), its
 * children's own children included. A child's id is its parent's followed by
 * `.`, so a root's descendants are the runs whose id starts with `<root id>.`:
 * counted in the store, so the count holds across resumes and restarts.
 */
import path from 'node:path';
import type { ChildSkillRequest } from '../../kernel/context';
import { StepFailedError } from '../../kernel/errors';
import { plural } from '../../kernel/plural';
import type { Json } from '../../kernel/json';
import { sha256 } from '../../kernel/memo';
import { isUnfinished, type RunOutcome } from '../../kernel/runner';
import type { Host } from '../host';
import { isSkillName } from '../../skill/schema';
import { maxDescendants } from '../limits';

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

/** How deep `runId` is nested (1 for a root), and its root (the run without a parent it descends from). */
async function ancestryOf(host: Host, runId: string): Promise<{ depth: number; root: string }> {
  let depth = 0;
  let root = runId;
  for (let id: string | null = runId; id && depth <= MAX_SKILL_DEPTH; depth++) {
    root = id;
    const run = await host.store.getRun(id);
    // a replay or a fork is a run of its own, not a call: its parent is not a caller
    id = run?.kind === 'run' ? run.parentRunId : null;
  }
  return { depth, root };
}

/** A new child of `root`'s tree would pass STAGECRAFT_MAX_DESCENDANTS: the step fails, naming the limit. */
async function requireDescendantRoom(host: Host, root: string, skill: string): Promise<void> {
  const max = maxDescendants(host.env);
  const started = await host.store.countRuns({ idPrefix: `${root}.` });
  if (started < max) return;
  throw new StepFailedError(
    'skill_descendants_exceeded',
    `run_skill ${skill}: run ${root} has already started ${plural(started, 'run')} through run_skill (its children's own included), ` +
      `the most one run may start (STAGECRAFT_MAX_DESCENDANTS=${max}). Start fewer child runs (do the work in one run, or in a code step), or raise the limit.`,
    { root, limit: max },
  );
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
  const { depth, root } = await ancestryOf(host, req.parentRunId);
  if (depth >= MAX_SKILL_DEPTH) {
    throw new StepFailedError('skill_depth_exceeded', `run_skill ${req.skill}: skills nested more than ${MAX_SKILL_DEPTH} deep (does a skill call itself?)`);
  }
  const runId = childRunId(req);
  const existing = await host.store.getRun(runId);
  let out: RunOutcome;
  if (!existing) {
    await requireDescendantRoom(host, root, req.skill);
    out = await fns.start(host, { ...target, input: req.input, parentRunId: req.parentRunId, runId });
  }
  else if (existing.status === 'completed') return existing.output;
  else if (isUnfinished(existing.status)) out = await fns.resume(host, runId);
  else out = { runId, status: existing.status, output: existing.output, error: existing.error, report: null };
  if (out.status !== 'completed') {
    throw new StepFailedError('child_skill_failed', `run_skill ${req.skill}: the child run ${out.runId} ${out.status}${out.error ? `: ${String(out.error.message)}` : ''}`, {
      childRunId: out.runId,
    });
  }
  return out.output;
}
