/** The store the CLI uses: the same as the app's (DATABASE_URL, else the embedded one). */
import { hostFor, processDriver, type Host } from '../lib/server/host';
import { noIsolationWarning } from '../lib/sandbox/isolation';
import { openStore } from '../lib/store';
import { flushTraces } from '../lib/server/runs/trace-run';

/**
 * `runsCode`: the command may run code steps — the isolation is settled first (STAGECRAFT_SANDBOX=required
 * without bubblewrap stops here), and running without a sandbox is said once, on stderr.
 */
export async function withHost<T>(fn: (host: Host) => Promise<T>, opts: { runsCode?: boolean } = {}): Promise<T> {
  const store = await openStore({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: process.env.STAGECRAFT_DATA_DIR,
    // on stderr, so that --json output stays parseable
    onProgress: (message) => process.stderr.write(`stagecraft: ${message}…\n`),
  });
  try {
    const host = hostFor({ store, skills: store.skills, env: process.env, cwd: process.cwd(), driver: processDriver('cli') });
    if (opts.runsCode) {
      const warning = noIsolationWarning(host.isolation());
      if (warning) process.stderr.write(`stagecraft: ${warning}\n`);
    }
    return await fn(host);
  } finally {
    // a short command's runs are sent before it exits (nothing to wait for when export is off)
    await flushTraces();
    await store.close();
  }
}
