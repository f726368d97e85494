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
import type { JsonObject } from '../../kernel/json';
import { startRun, type RunOutcome } from '../../kernel/runner';
import { loadSkillBundle } from '../../skill';
import { kernelDeps, modelFor, type Host } from '../host';
import { runChildSkill, type RunFns } from './child-skill';
import { resumeSkillRun } from './resume-run';

/** how a `run_skill` child is started or resumed (resume-run.ts hands the same to a resumed parent) */
export const childRunFns: RunFns = { start: (host, req) => startSkillRun(host, req), resume: (host, id) => resumeSkillRun(host, id) };

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

/** A store that keeps skill versions (the Prisma store does; the kernel's port, and MemoryStore, do not). */
type SkillVersions = { recordSkillVersion(name: string, text: string): Promise<{ versionId: string }> };

const keepsVersions = (store: object): store is SkillVersions => typeof (store as Partial<SkillVersions>).recordSkillVersion === 'function';

/**
 * The stored version of the text this run starts from, recorded if new: a run says which version of
 * its skill it ran (the text itself is on the run too, so a store without versions loses nothing).
 */
async function versionOf(host: Host, name: string, text: string): Promise<string | null> {
  return keepsVersions(host.store) ? (await host.store.recordSkillVersion(name, text)).versionId : null;
}

export async function startSkillRun(host: Host, req: StartRunRequest): Promise<RunOutcome> {
  const loaded = await loadSkillBundle(path.resolve(host.cwd, req.bundle));
  const model = modelFor(host, req.model, loaded.bundleDir);
  const skillVersionId = req.skillVersionId ?? (await versionOf(host, loaded.plan.name, loaded.text));
  const deps = kernelDeps(host, model, { runChildSkill: (r) => runChildSkill(host, r, childRunFns) });
  try {
    return await startRun(loaded.plan, deps, {
      input: req.input,
      skillText: loaded.text,
      parentRunId: req.parentRunId ?? null,
      skillVersionId,
      runId: req.runId,
    });
  } finally {
    await deps.close();
  }
}
