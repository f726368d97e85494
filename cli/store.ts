/** The store the CLI uses: the same as the app's (DATABASE_URL, else the embedded one). */
import { defaultBundlesDir, type Host } from '../lib/server/host';
import { openStore } from '../lib/store';

export async function withHost<T>(fn: (host: Host) => Promise<T>): Promise<T> {
  const store = await openStore({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: process.env.STAGECRAFT_DATA_DIR,
    // on stderr, so that --json output stays parseable
    onProgress: (message) => process.stderr.write(`stagecraft: ${message}…\n`),
  });
  try {
    const cwd = process.cwd();
    return await fn({ store, skills: store.skills, bundlesDir: defaultBundlesDir(process.env, cwd), env: process.env, cwd });
  } finally {
    await store.close();
  }
}
