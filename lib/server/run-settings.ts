/**
 * The settings a process reads from its environment only as it goes — when a run starts (its workspace quota,
 * its sandbox's /tmp, http/get's reach, its model's timeout), when a sandbox worker is spawned, when a run
 * starts another — checked all at once when the process starts. A mistake then stops `stagecraft worker` and
 * `npm start` with every bad value named, rather than failing each run later: a worker would take a run's job
 * and drop it ("not driven"), leaving the run queued; the app would record runs it cannot drive.
 *
 * Owns: which settings are checked at start, and saying all of them at once. Does not: read them for use (each
 * reader does, with the same parser, so the two cannot disagree) or check STAGECRAFT_SANDBOX for the app (npm start and the
 * app's boot check it with the sandbox probe); a worker's STAGECRAFT_SANDBOX is checked here, and `required`
 * probed by the worker once its store is open (cli/worker.ts).
 *
 * The app's are checked twice: by `npm start` before it builds anything, and by the server itself as it starts
 * (instrumentation.ts), for an app started with `next start` directly (a Docker image). A setting whose reader
 * loads a big module (the price table's parser: zod) is checked only when it is set, its reader loaded then
 * (appSettingsProblems), so that neither check, nor a worker, loads it for nothing.
 */
import { SettingsError, UsageError } from '../kernel/errors';
import { sandboxMode } from '../sandbox/isolation';
import { timeoutFrom } from '../models/timeout';
import { DEFAULT_MAX_WORKERS } from '../sandbox/worker-slots';
import { countFromEnv } from '../sandbox/workspace-usage';
import { commitLanesFromEnv } from '../store/lanes-setting';
import { checkDatabaseUrl } from '../store/database-url';
import { runLimitsFromEnv } from './run-limits';
import { maxDescendants, maxRuns } from './limits';
import { httpGetOptionsFromEnv } from './net/http-get';
import { workersModeOf } from './runs/run-source';

type Env = Record<string, string | undefined>;

/** what a process that drives runs reads: a worker, the app, the CLI */
const DRIVER_CHECKS: ((env: Env) => unknown)[] = [
  runLimitsFromEnv,
  httpGetOptionsFromEnv,
  (env) => countFromEnv(env, 'STAGECRAFT_MAX_WORKERS', DEFAULT_MAX_WORKERS),
  maxDescendants,
  (env) => timeoutFrom(env.STAGECRAFT_MODEL_TIMEOUT_MS),
  commitLanesFromEnv,
  // a URL of the wrong shape is said as one, not as a server that does not answer (store/database-url.ts)
  (env) => env.DATABASE_URL && checkDatabaseUrl(env.DATABASE_URL),
];

/** what only a worker checks here (the app's start checks its sandbox with the probe) */
const WORKER_CHECKS: ((env: Env) => unknown)[] = [sandboxMode];

/** what only the app reads */
const APP_CHECKS: ((env: Env) => unknown)[] = [
  maxRuns,
  workersModeOf,
];

/** what only the app reads, and only when set: the setting → its reader, loaded then (a check is a reader that throws a UsageError) */
const APP_CHECKS_WHEN_SET: [string, () => Promise<(env: Env) => unknown>][] = [
  // the run page's costs; a path is relative to the working directory, as for the app's reads (app-host.ts)
  ['STAGECRAFT_PRICES', async () => {
    const { priceTableFrom } = await import('./runs/prices');
    return (env) => priceTableFrom(env, process.cwd());
  }],
];

/** Every setting of `env` this process would refuse later, each as the sentence its reader says (none: []). */
export function runSettingsProblems(env: Env, of: 'worker' | 'app'): string[] {
  const checks = of === 'app' ? [...DRIVER_CHECKS, ...APP_CHECKS] : [...DRIVER_CHECKS, ...WORKER_CHECKS];
  const problems: string[] = [];
  for (const check of checks) problemOf(check, env, problems);
  return problems;
}

/** Every setting of `env` the app would refuse later: runSettingsProblems's, then those checked only when set (STAGECRAFT_PRICES). */
export async function appSettingsProblems(env: Env): Promise<string[]> {
  const problems = runSettingsProblems(env, 'app');
  for (const [name, reader] of APP_CHECKS_WHEN_SET) {
    if (env[name]?.trim()) problemOf(await reader(), env, problems);
  }
  return problems;
}

/** runs `check`; its UsageError's message goes to `problems`, anything else is thrown */
function problemOf(check: (env: Env) => unknown, env: Env, problems: string[]): void {
  try {
    check(env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    problems.push(e.message);
  }
}

/** Throws one SettingsError naming every bad setting of `env` (runSettingsProblems), before anything starts. */
export function checkRunSettings(env: Env, of: 'worker' | 'app'): void {
  const problems = runSettingsProblems(env, of);
  if (problems.length > 0) throw new SettingsError(problems);
}
