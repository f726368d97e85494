/** The store the CLI uses: the same as the app's (DATABASE_URL, else the embedded one). */
import { setFlagsFromString } from 'node:v8';
import { hostFor, processDriver, type Host } from '../lib/server/host';
import { noIsolationWarning } from '../lib/sandbox/isolation';
import { openStore, type OpenedStore } from '../lib/store';
import { sweepWorkspaces } from '../lib/server/runs/sweep-workspaces';
import { flushTraces } from '../lib/server/runs/trace-run';

/**
 * `runsCode`: the command may run code steps — the isolation is settled first (STAGECRAFT_SANDBOX=required
 * without bubblewrap stops here), running without a sandbox is said once, on stderr, and afterwards the
 * workspaces of runs finished longer ago than STAGECRAFT_WORKSPACE_RETENTION are removed.
 */
export async function withHost<T>(fn: (host: Host & { store: OpenedStore }) => Promise<T>, opts: { runsCode?: boolean } = {}): Promise<T> {
  if (!process.env.DATABASE_URL) baselineWasmOnly();
  const store = await openStore({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: process.env.STAGECRAFT_DATA_DIR,
    // on stderr, so that --json output stays parseable
    onProgress: (message) => process.stderr.write(`stagecraft: ${message}…\n`),
  });
  try {
    const host = { ...hostFor({ store, skills: store.skills, env: process.env, cwd: process.cwd(), driver: processDriver('cli') }), store };
    if (opts.runsCode) {
      const warning = noIsolationWarning(host.isolation());
      if (warning) process.stderr.write(`stagecraft: ${warning}\n`);
    }
    const result = await fn(host);
    if (opts.runsCode) await sweepWorkspaces(host).catch(() => {});
    return result;
  } finally {
    // a short command's runs are sent before it exits (nothing to wait for when export is off)
    await flushTraces();
    await store.close();
  }
}

/**
 * The embedded database is Postgres compiled to WebAssembly (9 MB). V8 runs it first with its
 * baseline compiler (Liftoff) and recompiles the functions that run hot with its optimizing one
 * (TurboFan) on background threads. A CLI command lives about a second, and Postgres's start-up runs
 * a lot of code once: the recompiles it sets off cost more CPU than the whole command otherwise
 * does (measured on `stagecraft run examples/summarize`: 2.6 s user CPU → 1.3–1.7 s, peak RSS
 * 220 → 155 MB), on a machine of 2 cores they take the core the run's code step needs, and the
 * main thread waits on their code-space lock (hundreds of ms, in futex). Baseline code queries
 * about as fast over a command's lifetime (2,400 statements: the same time either way, ±noise).
 * The app server, a long-lived process, keeps the default. Set before the module is compiled:
 * the flag is read when PGlite instantiates its WebAssembly.
 */
function baselineWasmOnly(): void {
  setFlagsFromString('--liftoff-only');
}
