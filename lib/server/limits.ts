/**
 * How much a caller or a run may take: a run's input (`--input`, `POST /api/runs`) and any request
 * body; how many runs one run may start (`run_skill`, STAGECRAFT_MAX_DESCENDANTS); how many runs
 * the app drives at once (STAGECRAFT_MAX_RUNS). Large data belongs in the workspace, not in an input.
 */
import { availableParallelism } from 'node:os';
import { SettingsError } from '../kernel/errors';

export const MAX_INPUT_BYTES = 8 * 1024 * 1024;
export { MAX_JSON_DEPTH } from '../kernel/json-depth';

/** runs one root run may start through run_skill, its children's own included */
export const DEFAULT_MAX_DESCENDANTS = 100;

type Env = Record<string, string | undefined>;

/** A positive whole number from the environment, its default when unset, a clear error otherwise. */
function positiveInt(env: Env, name: string, fallback: number, what: string): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new SettingsError(`${name}="${raw}": give ${what} as a whole number of at least 1 (default ${fallback}).`);
  return n;
}

export function maxDescendants(env: Env): number {
  return positiveInt(env, 'STAGECRAFT_MAX_DESCENDANTS', DEFAULT_MAX_DESCENDANTS, 'the most runs one run may start through run_skill');
}

/** twice the CPUs: a run mostly waits (on a model, on the store), but its code steps take a core */
export function defaultMaxRuns(): number {
  return 2 * availableParallelism();
}

export function maxRuns(env: Env): number {
  return positiveInt(env, 'STAGECRAFT_MAX_RUNS', defaultMaxRuns(), 'the most runs the app drives at once');
}
