/**
 * Start a run of a skill bundle: load and compile skill.md (an invalid skill
 * is a SkillValidationError, before anything is recorded), pick the model,
 * wire the host, run it to the end.
 *
 * `run_skill` inside the run comes back here: the child bundle is resolved
 * against the calling bundle's parent folder and runs as a run of its own,
 * linked by `parentRunId`.
 */
import path from 'node:path';
import type { ChildSkillRequest } from '../../kernel/context';
import { StepFailedError } from '../../kernel/errors';
import type { Json, JsonObject } from '../../kernel/json';
import { startRun, type RunOutcome } from '../../kernel/runner';
import { loadSkillBundle } from '../../skill';
import { kernelDeps, modelFor, type Host } from '../host';

export type StartRunRequest = {
  /** a bundle folder or its skill.md */
  bundle: string;
  input: JsonObject;
  /** model spec; default: the bundle's model.yaml, else the configured endpoint */
  model?: string;
  parentRunId?: string | null;
  skillVersionId?: string | null;
  /** a caller-chosen id (idempotent triggers, tests); default: a fresh one */
  runId?: string;
};

export async function startSkillRun(host: Host, req: StartRunRequest): Promise<RunOutcome> {
  const loaded = await loadSkillBundle(path.resolve(host.cwd, req.bundle));
  const model = modelFor(host, req.model, loaded.bundleDir);
  const deps = kernelDeps(host, model, { runChildSkill: (r) => runChildSkill(host, r) });
  try {
    return await startRun(loaded.plan, deps, {
      input: req.input,
      skillText: loaded.text,
      parentRunId: req.parentRunId ?? null,
      skillVersionId: req.skillVersionId ?? null,
      runId: req.runId,
    });
  } finally {
    await deps.close();
  }
}

/** `skill` is a sibling bundle's folder name, or a path relative to the calling bundle. */
export function resolveChildBundle(ref: string, fromBundleDir: string): string {
  if (ref.startsWith('.') || ref.includes('/')) return path.resolve(fromBundleDir, ref);
  return path.resolve(fromBundleDir, '..', ref);
}

async function runChildSkill(host: Host, r: ChildSkillRequest): Promise<Json> {
  const bundle = resolveChildBundle(r.skill, r.fromBundleDir);
  const out = await startSkillRun(host, { bundle, input: r.input, parentRunId: r.parentRunId });
  if (out.status !== 'completed') {
    throw new StepFailedError('child_skill_failed', `run_skill ${r.skill}: the child run ${out.runId} ${out.status}: ${String(out.error?.message ?? '')}`, {
      childRunId: out.runId,
    });
  }
  return out.output;
}
