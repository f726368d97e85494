/** The store the CLI uses: the same as the app's (DATABASE_URL, else the embedded one). */
import { hostFor, type Host } from '../lib/server/host';
import { openStore } from '../lib/store';

export async function withHost<T>(fn: (host: Host) => Promise<T>): Promise<T> {
  const store = await openStore({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: process.env.STAGECRAFT_DATA_DIR,
    // on stderr, so that --json output stays parseable
    onProgress: (message) => process.stderr.write(`stagecraft: ${message}…\n`),
  });
  try {
    return await fn(hostFor({ store, skills: store.skills, env: process.env, cwd: process.cwd() }));
  } finally {
    await store.close();
  }
}
