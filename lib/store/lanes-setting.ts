/** STAGECRAFT_COMMIT_LANES, apart from the lanes (commit-lanes.ts loads pg) so that `npm start` can check it cheaply (lib/server/run-settings.ts). */
import { SettingsError } from '../kernel/errors';

/** one lane by default: measured at 200 runs × 5 steps, concurrency 8, one lane batches more and beats two by 20–25% (STAGECRAFT_COMMIT_LANES overrides) */
export const DEFAULT_COMMIT_LANES = 1;

/**
 * STAGECRAFT_COMMIT_LANES as a count of lanes (DEFAULT_COMMIT_LANES when unset). Anything but a whole number of at
 * least 1 is refused: `abc` and `0` were read as unset, `1.5` and `-2` made a lane count no one asked for.
 */
export function commitLanesFromEnv(env: Record<string, string | undefined>): number {
  const raw = env.STAGECRAFT_COMMIT_LANES;
  if (raw === undefined || raw.trim() === '') return DEFAULT_COMMIT_LANES;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    throw new SettingsError(`STAGECRAFT_COMMIT_LANES=${JSON.stringify(raw)}: give the Postgres connections for writes as a whole number of at least 1 (default ${DEFAULT_COMMIT_LANES}).`);
  }
  return n;
}
