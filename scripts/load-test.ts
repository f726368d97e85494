/**
 * `npm run test:load`: 200 runs started at once through the API of the built
 * app (`next build` first), on a fresh embedded store, with the default
 * STAGECRAFT_MAX_RUNS (twice the CPUs) unless the environment sets one. Prints
 * one JSON line: p50/p95/max of `GET /api/skills` while they run, the server's
 * peak RSS (and its process group's, sandbox workers included), the most runs
 * driven at once, how many were seen queued, how they ended, the POSTs' latency.
 *   --runs N      runs to start (default 200)
 *   --step-ms MS  how long each run's one code step waits (default 200)
 */
import { parseArgs } from 'node:util';
import { startApp } from '../lib/server/http/testing/app-server';
import { runLoad } from '../lib/server/http/testing/load';
import { defaultMaxRuns } from '../lib/server/limits';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '200' }, 'step-ms': { type: 'string', default: '200' } } });
const env: Record<string, string> = {};
if (process.env.STAGECRAFT_MAX_RUNS) env.STAGECRAFT_MAX_RUNS = process.env.STAGECRAFT_MAX_RUNS;
// DATABASE_URL: that Postgres (a database of its own: the probe skill and its runs are written there); else the embedded store
if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
const app = await startApp({ env });
try {
  const figures = await runLoad(app, { runs: Number(values.runs), stepMs: Number(values['step-ms']), timeoutMs: 20 * 60_000 });
  console.log(JSON.stringify({ bench: 'load', store: env.DATABASE_URL ? 'postgres' : 'embedded', maxRuns: Number(env.STAGECRAFT_MAX_RUNS ?? defaultMaxRuns()), ...figures }));
  process.exitCode = figures.completed === figures.runs && figures.skillsMs.p95 <= 200 ? 0 : 1;
} finally {
  await app.stop();
}
