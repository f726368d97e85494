/**
 * Opening the durable store: Postgres when a URL is given (or DATABASE_URL is
 * set), else an embedded PGlite under STAGECRAFT_DATA_DIR or ./.stagecraft/.
 * Either way the same migrations are applied on open (idempotent; a no-op
 * costs one query), so a new user needs nothing installed.
 *
 * Owns: choosing the backend (each opened by a module of its own, imported
 * when chosen: open-postgres.ts, open-embedded.ts), and the process-wide
 * singleton the Next app uses (`getStore`, kept on globalThis so dev-mode
 * module reloads do not open a second PGlite on the same dir).
 *
 * Does not: open anything at import time (`next build` imports route modules
 * in several processes at once), or implement the port (prisma-store.ts).
 */
import path from 'node:path';
import type { DeployResult, MigrationPaths } from './migrate/migrations';
import type { PrismaStore } from './prisma-store';
import { checkDatabaseUrl } from './database-url';

export type OpenStoreOptions = {
  /** a postgres:// URL; wins over everything else */
  databaseUrl?: string;
  /** the embedded store's directory; used when no URL is given (explicitly or by DATABASE_URL) */
  dataDir?: string;
  /** connections in the Postgres pool (default 10) */
  poolSize?: number;
  /** for tests: another schema/migration history */
  migrationPaths?: MigrationPaths;
  /**
   * The embedded database's buffer cache, as Postgres writes it ('4MB'); default 16MB, for a
   * process that stays (the app). A command that opens the store once passes less: PGlite zeroes
   * it all as it starts (open-embedded.ts). Ignored on Postgres.
   */
  sharedBuffers?: string;
  /**
   * The embedded store's upkeep (embedded-upkeep.ts: the VACUUM and ANALYZE autovacuum would give
   * it), for the process that keeps the store open all day — the app's `getStore`. Off by default:
   * a command, a bench or a test opening the store never has it. Ignored on Postgres.
   */
  upkeep?: boolean;
  /** told about slow work before it starts (creating an embedded database), for a CLI to show */
  onProgress?: (message: string) => void;
};

export const DEFAULT_DATA_DIR = '.stagecraft';
/** the embedded buffer cache of a store opened for one command (`sharedBuffers`; open-embedded.ts says why) */
export const COMMAND_SHARED_BUFFERS = '4MB';

export type OpenedStore = PrismaStore & {
  readonly migrations: DeployResult;
  /** the Postgres URL it was opened on (the run queue lives in the same database); absent for the embedded store */
  readonly databaseUrl?: string;
};

export async function openStore(opts: OpenStoreOptions = {}): Promise<OpenedStore> {
  // an empty value (`STAGECRAFT_DATA_DIR= cmd`) counts as unset, as the environment's convention is
  const url = opts.databaseUrl || (!opts.dataDir ? process.env.DATABASE_URL || undefined : undefined);
  // each backend's drivers load with it: a process on Postgres never loads PGlite, an embedded one never loads pg
  const dataDir = path.resolve(/*turbopackIgnore: true*/ opts.dataDir || process.env.STAGECRAFT_DATA_DIR || DEFAULT_DATA_DIR);
  if (url) {
    checkDatabaseUrl(url, dataDir);
    return (await import('./open-postgres')).openPostgres(url, opts);
  }
  return (await import('./open-embedded')).openEmbedded(dataDir, opts);
}

export { redactUrl } from './open-errors';

// ---------------------------------------------------------------- the app's singleton

const SINGLETON = Symbol.for('stagecraft.store');
type Holder = { [SINGLETON]?: Promise<OpenedStore> };

/** The process's store, opened on first use; a failed open is retried on the next call. */
export function getStore(): Promise<OpenedStore> {
  const g = globalThis as Holder;
  if (!g[SINGLETON]) {
    const opening = openStore({ upkeep: true, onProgress: (message) => console.log(`stagecraft: ${message}…`) });
    g[SINGLETON] = opening;
    opening.then(installShutdownHooks, () => {
      if (g[SINGLETON] === opening) delete g[SINGLETON];
    });
  }
  return g[SINGLETON];
}

/** Closes the singleton (a later getStore opens it again). */
export async function closeStore(): Promise<void> {
  const g = globalThis as Holder;
  const opening = g[SINGLETON];
  delete g[SINGLETON];
  const store = await opening?.catch(() => null);
  await store?.close();
}

let hooksInstalled = false;

/**
 * On SIGINT/SIGTERM, close the store (PGlite checkpoints, the lock file goes)
 * before exiting, but only where nobody else handles the signal: a host that
 * has its own handlers (Next's server) owns shutdown and should call closeStore.
 */
function installShutdownHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    if (process.listenerCount(signal) > 0) continue;
    process.once(signal, () => {
      void closeStore().finally(() => process.kill(process.pid, signal));
    });
  }
}
