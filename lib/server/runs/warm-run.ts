/**
 * A bundle run's first worker, started before the store is open (the CLI's `run`): the store's
 * open (PGlite's start, the migrations check) and the worker's start (an interpreter in a fresh
 * sandbox) each take a few hundred milliseconds, and neither needs the other. What the worker's
 * sandbox binds is known without the store: the version's read-only copy is named by the content
 * hash of the folder's files (materialize.ts), and the run's workspace by an id chosen now.
 *
 * The run then starts with that id, that sandbox and the files read here (start-run.ts `runId`,
 * `sandbox`, `read`: the folder is read once, and what the run records is what the sandbox binds,
 * even if the folder changes meanwhile); if it never starts (a bad input, a store that cannot
 * open), `discard` removes the workspace made for it.
 * Anything unusual (an unreadable folder, an invalid skill, no code step, a named --workspace) is
 * left to the normal path, which reports it: `warmSkillRun` then returns null.
 */
import { rmdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PhasePlan, Plan, StepSpec } from '../../kernel/plan';
import type { CodeSandbox } from '../../kernel/ports';
import { bundleHash } from '../../store/skills';
import { gitBaselineOf, localHostFor, runSandbox, workspaceOf } from '../host';
import { readBundleDir } from '../skills/bundle-dir';
import { materializeVersion } from '../skills/materialize';
import { randomIds } from '../system';
import { compileCopy } from './compiled-copies';
import type { FolderRead } from './start-run';

/** `read`: the folder as read here, whose copy the sandbox binds: the run records these files, not a second read (start-run.ts) */
export type WarmRun = { runId: string; sandbox: CodeSandbox; read: FolderRead; discard(): Promise<void> };

/** The first node or python step of a chain of steps (inside iterate blocks too). */
function firstCode(steps: readonly StepSpec[]): Extract<StepSpec, { type: 'node' | 'python' }> | undefined {
  for (const s of steps) {
    const found = s.type === 'iterate' ? firstCode(s.steps) : s.type === 'node' || s.type === 'python' ? s : undefined;
    if (found) return found;
  }
  return undefined;
}

/** The code step a run calls first, as far as the plan says: the phases' preprocessors in graph order, then the postprocessor. */
export function firstCodeStep(plan: Plan): Extract<StepSpec, { type: 'node' | 'python' }> | undefined {
  const chains = [...plan.order.map((name) => (plan.phases[name] as PhasePlan | undefined)?.preprocessor), plan.postprocessor];
  for (const chain of chains) {
    const found = firstCode(chain?.steps ?? []);
    if (found) return found;
  }
  return undefined;
}

export function warmSkillRun(env: Record<string, string | undefined>, cwd: string, bundle: string): WarmRun | null {
  try {
    const local = localHostFor(env, cwd);
    const given = path.resolve(cwd, bundle);
    const dir = statSync(given).isDirectory() ? given : path.dirname(given);
    const { files, problems } = readBundleDir(dir);
    if (problems.length || files['skill.md'] === undefined) return null;
    const copyDir = materializeVersion(local.bundlesDir, { hash: bundleHash(files), files });
    // the plan prepareFolder takes next, for the copy and for its check of the folder (compiled-copies.ts): compiled once
    const code = firstCodeStep(compileCopy(files, copyDir, path.join(dir, 'skill.md')));
    if (!code) return null;
    const runId = randomIds.newId('run');
    const sandbox = runSandbox(local, { runId, bundleDir: copyDir });
    sandbox.warm?.({ language: code.type, modulePath: code.modulePath });
    return {
      runId,
      sandbox,
      read: { dir, files },
      async discard() {
        await sandbox.close();
        try {
          rmdirSync(workspaceOf(local, runId)); // empty: nothing ran in it
          rmSync(gitBaselineOf(local, runId), { force: true }); // and the record of its .git entries (none)
        } catch {
          // something is in it: kept, as any run's workspace is
        }
      },
    };
  } catch {
    return null;
  }
}
