/**
 * The host: what a composition root (the CLI, the web app) hands the kernel
 * for a run — the store, clock and ids, a fresh code sandbox per run, the
 * model chosen by spec, the child-skill runner for `run_skill`, and fault
 * points for crash tests — and where skill versions are kept and copied out
 * for runs to execute from.
 *
 * Owns: wiring. Does not: decide what a run does (lib/kernel) or how it is
 * shown (the CLI and the app format outcomes themselves).
 */
import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import type { KernelDeps } from '../kernel/context';
import type { JsonObject } from '../kernel/json';
import { UsageError } from '../kernel/errors';
import { faultsFromSpec } from '../kernel/faults';
import type { CodeSandbox, ModelPort, StorePort } from '../kernel/ports';
import { createCodeSandbox } from '../sandbox';
import { isolationFor, sandboxMode, type Isolation } from '../sandbox/isolation';
import { createWorkspaceFiles } from '../sandbox/workspace-files';
import type { SkillRepo } from '../store/skills';
import { locateModelScript, modelFromSpec, type ModelEnv } from '../models';
import { randomIds, systemClock } from './system';
import { hostFetch, httpGetOptionsFromEnv } from './net/http-get';
import { runLimitsFromEnv, type RunLimits } from './run-limits';

export type Host = {
  store: StorePort;
  /** skills and their versions: every run records the version it ran */
  skills: SkillRepo;
  /** where versions are written out, read-only, for runs to execute from (materialize.ts) */
  bundlesDir: string;
  /** where each run's workspace is: `<workspacesDir>/<run id>` (a folder, or a link to the one the user named) */
  workspacesDir: string;
  /** how code steps are confined (lib/sandbox/isolation.ts): asked when code is about to run, so a command that runs none never needs a sandbox */
  isolation: () => Isolation;
  /** what a run's code and workspace may use (from the environment; asked when a run starts, like `isolation`) */
  limits: () => RunLimits;
  env: ModelEnv;
  /** the working directory relative paths (model scripts, inputs) resolve against */
  cwd: string;
  /** who drives the runs this host starts or resumes (recorded on run_started / run_resumed): a CLI, the app, a worker */
  driver?: JsonObject;
};

export { DEFAULT_WORKSPACE_RETENTION_MS, durationFromEnv, runLimitsFromEnv, type RunLimits } from './run-limits';

/** STAGECRAFT_DATA_DIR (default ./.stagecraft), absolute: the embedded database, bundles, workspaces, the sandbox probe's verdict */
export function dataDirOf(env: ModelEnv, cwd: string): string {
  return path.resolve(cwd, env.STAGECRAFT_DATA_DIR || '.stagecraft');
}

/** `<data dir>/bundles` and `<data dir>/workspaces`: beside the embedded database (or where it would be, on Postgres) */
export function defaultHostDirs(env: ModelEnv, cwd: string): Pick<Host, 'bundlesDir' | 'workspacesDir'> {
  const dataDir = dataDirOf(env, cwd);
  return { bundlesDir: path.join(dataDir, 'bundles'), workspacesDir: path.join(dataDir, 'workspaces') };
}

/**
 * The host of a process: its store and skills, the folders under its data dir, and the isolation
 * STAGECRAFT_SANDBOX asks for (probed on first use, the verdict kept in the data dir; `required`
 * without bubblewrap then throws SandboxUnavailableError, before any code runs).
 */
export function hostFor(parts: { store: StorePort; skills: SkillRepo; env: ModelEnv; cwd: string; driver?: JsonObject }): Host {
  return { ...parts, ...localHostFor(parts.env, parts.cwd) };
}

/** What a host knows without its store: its folders, its isolation and its limits (a run's sandbox can be made from it). */
export type LocalHost = Pick<Host, 'bundlesDir' | 'workspacesDir' | 'isolation' | 'limits'>;

export function localHostFor(env: ModelEnv, cwd: string): LocalHost {
  let limits: RunLimits | null = null;
  return {
    ...defaultHostDirs(env, cwd),
    isolation: () => isolationFor(sandboxMode(env), { cacheDir: dataDirOf(env, cwd) }),
    limits: () => (limits ??= runLimitsFromEnv(env)),
  };
}

/** This process as the driver of its runs: what kind of process, on which host, which pid. */
export function processDriver(kind: 'cli' | 'app'): JsonObject {
  return { kind, host: os.hostname(), pid: process.pid };
}

/**
 * A run's workspace: the folder its file ops act on and its code steps work in (their current
 * folder, the one place they may write). Made when first asked for.
 */
/** the folder of the workspaces' `.git` baselines (workspace-guard.ts), in the workspaces dir */
export const GIT_BASELINES = '.git-baselines';

export function workspaceOf(host: Pick<Host, 'workspacesDir'>, runId: string): string {
  const dir = path.join(host.workspacesDir, runId);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The model a bundle runs with when none is named: its own `model.yaml`, else the configured endpoint.
 * `shown`: the bundle as its author knows it (the folder `stagecraft run` was given), not its copy
 * under the data dir.
 */
export function defaultModelSpec(bundleDir: string, env: ModelEnv, shown = bundleDir): string {
  if (existsSync(path.join(bundleDir, 'model.yaml'))) return `scripted:${path.join(bundleDir, 'model.yaml')}`;
  if (env.STAGECRAFT_MODEL_BASE_URL) return 'openai';
  throw new UsageError(
    `No model: the bundle ${shown} has no model.yaml script and STAGECRAFT_MODEL_BASE_URL is not set. Pass --model scripted:FILE or configure an OpenAI-compatible endpoint. ${MODEL_SCRIPT_HINT}`,
  );
}

/** where a model script's format is told */
const MODEL_SCRIPT_HINT = 'A model script (model.yaml) plays the model offline, turn by turn: see "Model scripts" in docs/skill-md.md (/docs/skill-md#model-scripts in the app).';

/** Resolve a spec so it still means the same thing from another directory (resume, app). */
export function absoluteModelSpec(spec: string, bundleDir: string, cwd: string): string {
  if (!spec.startsWith('scripted:')) return spec;
  const file = spec.slice('scripted:'.length);
  if (path.isAbsolute(file)) return spec;
  // the file modelFromSpec takes (the bundle's first; a file over a folder): a name that is no file is left
  // as given, for modelFromSpec to say where it looked
  return `scripted:${locateModelScript(file, bundleDir, cwd).file ?? file}`;
}

/** `shown`: the bundle as its author knows it, for an error about it (default: `bundleDir`) */
export function modelFor(host: Host, spec: string | undefined, bundleDir: string, shown?: string): ModelPort {
  const s = absoluteModelSpec(spec ?? defaultModelSpec(bundleDir, host.env, shown), bundleDir, host.cwd);
  return modelFromSpec(s, { bundleDir, env: host.env, cwd: host.cwd, shown: shown === bundleDir ? undefined : shown });
}

/** Where the `.git` entries a run's workspace had before its code ran are recorded, beside the workspaces (no run id starts with a dot). */
export function gitBaselineOf(host: Pick<Host, 'workspacesDir'>, runId: string): string {
  return path.join(host.workspacesDir, GIT_BASELINES, `${runId}.json`);
}

/** Whether a run's workspace is a folder the user named (`--workspace`): its place under the data dir is a link to it. */
export function isUserWorkspace(host: Pick<Host, 'workspacesDir'>, runId: string): boolean {
  try {
    return lstatSync(path.join(host.workspacesDir, runId)).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Kernel deps for one execution of a run: code runs in a sandbox that sees the bundle read-only and
 * the run's workspace; file ops act on the workspace (reading the bundle's own files where the
 * workspace has none) without following what code made there; http/get reaches public addresses only,
 * within a cap (net/http-get.ts). A workspace Stagecraft made has the
 * quota; a folder the user named has none (it is theirs, and may be a large repository). `close`
 * releases the sandbox's workers (`extra.sandbox`: one made ahead by `runSandbox`, closed here too).
 */
export function kernelDeps(
  host: Host,
  model: ModelPort,
  run: { runId: string; bundleDir: string },
  extra: Partial<KernelDeps> = {},
): KernelDeps & { close(): Promise<void> } {
  const workDir = workspaceOf(host, run.runId);
  const quota = isUserWorkspace(host, run.runId) ? null : host.limits().workspaceQuota;
  const sandbox = extra.sandbox ?? runSandbox(host, run);
  return {
    store: host.store,
    clock: systemClock,
    ids: randomIds,
    model,
    files: createWorkspaceFiles({ root: workDir, readFallback: run.bundleDir, quota }),
    fetch: hostFetch(httpGetOptionsFromEnv(host.env)),
    faults: faultsFromSpec(host.env.STAGECRAFT_FAULT, () => process.kill(process.pid, 'SIGKILL')),
    ...(host.driver ? { driver: host.driver } : {}),
    ...extra,
    sandbox,
    close: () => sandbox.close(),
  };
}

/**
 * The code sandbox of one execution of a run: the bundle read-only, the run's workspace writable
 * (with its quota, unless it is a folder the user named). Made by `kernelDeps`, or ahead of it by a
 * caller that starts the run's first worker while the store opens (the CLI's `run`).
 */
export function runSandbox(host: Omit<LocalHost, 'bundlesDir'>, run: { runId: string; bundleDir: string }): CodeSandbox {
  const workDir = workspaceOf(host, run.runId);
  const limits = host.limits();
  const isMadeWorkspace = !isUserWorkspace(host, run.runId);
  const quota = isMadeWorkspace ? limits.workspaceQuota : null;
  return createCodeSandbox({
    bundleDir: run.bundleDir,
    workDir,
    isolation: host.isolation(),
    workspaceQuota: quota,
    tmpBytes: limits.tmpBytes,
    gitBaselineFile: gitBaselineOf(host, run.runId),
    isMadeWorkspace,
  });
}
