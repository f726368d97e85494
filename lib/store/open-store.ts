/**
 * Opening the durable store: Postgres when a URL is given (or DATABASE_URL is
 * set), else an embedded PGlite under STAGECRAFT_DATA_DIR or ./.stagecraft/.
 * Either way the same migrations are applied on open (idempotent; a no-op
 * costs one query), so a new user needs nothing installed.
 *
 * Owns: choosing the backend, the embedded data-dir lock (data-dir-lock.ts),
 * turning "cannot open" into StoreUnavailableError with what to do, and the
 * process-wide singleton the Next app uses (`getStore`, kept on globalThis so
 * dev-mode module reloads do not open a second PGlite on the same dir).
 *
 * Does not: open anything at import time (`next build` imports route modules
 * in several processes at once), or implement the port (prisma-store.ts).
 */
import { existsSync, mkdirSync, readdirSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CommitLanes } from './commit-lanes';
import { EmbeddedLine } from './embedded-line';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { StoreUnavailableError } from '../kernel/errors';
import { PrismaClient } from './generated/prisma/client';
import { LaneClaims, LocalClaims } from './claims';
import { acquireDataDirLock } from './data-dir-lock';
import { deployToPglite, deployToPostgres } from './migrate/targets';
import { removeAbandonedSeeds, seedFromTemplate } from './embedded-template';
import type { DeployResult, MigrationPaths } from './migrate/migrations';
import { PrismaStore } from './prisma-store';

export type OpenStoreOptions = {
  /** a postgres:// URL; wins over everything else */
  databaseUrl?: string;
  /** the embedded store's directory; used when no URL is given (explicitly or by DATABASE_URL) */
  dataDir?: string;
  /** connections in the Postgres pool (default 10) */
  poolSize?: number;
  /** for tests: another schema/migration history */
  migrationPaths?: MigrationPaths;
  /** told about slow work before it starts (creating an embedded database), for a CLI to show */
  onProgress?: (message: string) => void;
};

export const DEFAULT_DATA_DIR = '.stagecraft';
/** the PGlite cluster's directory inside the data dir (the lock file sits beside it) */
export const PGLITE_SUBDIR = 'pglite';
/**
 * Postgres's buffer cache in the embedded database. initdb writes 128MB, and PGlite touches all of
 * it as it starts: 100 MB of resident memory in every CLI command that opens the store. The
 * embedded store holds one person's runs; pages it evicts are still in the OS's file cache.
 */
export const EMBEDDED_SHARED_BUFFERS = '16MB';

export type OpenedStore = PrismaStore & {
  readonly migrations: DeployResult;
  /** the Postgres URL it was opened on (the run queue lives in the same database); absent for the embedded store */
  readonly databaseUrl?: string;
};

export async function openStore(opts: OpenStoreOptions = {}): Promise<OpenedStore> {
  // an empty value (`STAGECRAFT_DATA_DIR= cmd`) counts as unset, as the environment's convention is
  const url = opts.databaseUrl || (!opts.dataDir ? process.env.DATABASE_URL || undefined : undefined);
  if (url) return openPostgres(url, opts);
  const dataDir = path.resolve(/*turbopackIgnore: true*/ opts.dataDir || process.env.STAGECRAFT_DATA_DIR || DEFAULT_DATA_DIR);
  return openEmbedded(dataDir, opts);
}

async function openPostgres(url: string, opts: OpenStoreOptions): Promise<OpenedStore> {
  const where = redactUrl(url);
  let migrations: DeployResult;
  try {
    migrations = await deployToPostgres(url, opts.migrationPaths);
  } catch (e) {
    throw isConnectionError(e) ? unreachable(where, e) : migrationFailed(where, e);
  }
  // Prisma's adapter owns this pool: it listens for idle connections the server closed (a restart,
  // an admin's terminate) and ends the pool on disconnect
  const prisma = new PrismaClient({
    adapter: new PrismaPg({ connectionString: url, max: opts.poolSize ?? 10, application_name: 'stagecraft' }),
  });
  const lanes = new CommitLanes(url);
  // the reads a resume makes first (run-reads.ts), on a small pool of their own
  const reads = new pg.Pool({ connectionString: url, max: 2, application_name: 'stagecraft-reads' });
  reads.on('error', () => undefined); // an idle connection the server closed: the next read opens another
  // connect now, in parallel: a process that opens the store drives or reads runs next
  lanes.warm();
  void reads.connect().then((c) => c.release(), () => undefined);
  const store = new PrismaStore({
    prisma,
    claims: new LaneClaims(lanes),
    backend: 'postgres',
    location: where,
    // writes and claims on dedicated per-run lanes (commit-lanes.ts); everything else on Prisma's pool
    apply: (runId, op) => lanes.apply(runId, op),
    sql: async (text, values) => (await reads.query(text, values)).rows,
    onClose: async () => {
      await lanes.close();
      await reads.end().catch(() => undefined);
    },
  });
  return Object.assign(store, { migrations, databaseUrl: url });
}

async function openEmbedded(dataDir: string, opts: OpenStoreOptions): Promise<OpenedStore> {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (e) {
    throw new StoreUnavailableError(
      'store_unavailable',
      `Cannot create the embedded store's directory ${dataDir}: ${(e as Error).message}. ` +
        'Set STAGECRAFT_DATA_DIR to a writable directory, or DATABASE_URL to a Postgres server.',
      { dataDir },
    );
  }
  const lock = acquireDataDirLock(dataDir);
  let db: PGlite | null = null;
  try {
    // A fresh dir starts as a copy of the install's template cluster (embedded-template.ts);
    // without one, PGlite runs initdb (seconds) in an empty dir (it does not create parents).
    const pgdata = path.join(dataDir, PGLITE_SUBDIR);
    removeAbandonedSeeds(pgdata);
    if (existsSync(pgdata) && readdirSync(pgdata).length === 0) rmdirSync(pgdata);
    let seeded: string[] | null = null;
    if (!existsSync(pgdata)) {
      opts.onProgress?.(`creating the embedded database in ${dataDir}`);
      const r = await seedFromTemplate(pgdata, opts.migrationPaths, () =>
        opts.onProgress?.('preparing the embedded database template (once per install; a few seconds)'),
      );
      if (Array.isArray(r)) seeded = r;
      else {
        opts.onProgress?.(`the database template could not be used (${r.reason}); running initdb instead, which takes longer`);
        mkdirSync(pgdata);
      }
    }
    db = await PGlite.create(pgdata, { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`] });
    const deployed = await deployToPglite(db, opts.migrationPaths);
    // a copied template holds its migrations already: they were applied to this data dir all the same
    const migrations: DeployResult = seeded ? { applied: [...seeded, ...deployed.applied], skipped: false } : deployed;
    const opened = db;
    // one line for all of it: reads someone waits on first, the server's requests served between two uses, writes batched
    const line = new EmbeddedLine(opened);
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(line.gated()) });
    const store = new PrismaStore({
      apply: (_runId, op) => line.apply(op),
      sql: (text, values) => line.use(async () => (await opened.query<Record<string, unknown>>(text, values)).rows),
      prisma,
      claims: new LocalClaims(),
      backend: 'pglite',
      location: dataDir,
      onClose: async () => {
        try {
          await opened.close();
        } finally {
          lock.release();
        }
      },
    });
    return Object.assign(store, { migrations });
  } catch (e) {
    const opened = db as PGlite | null;
    await opened?.close().catch(() => {});
    lock.release();
    if (e instanceof StoreUnavailableError) throw e;
    if (db) throw migrationFailed(dataDir, e);
    throw new StoreUnavailableError(
      'store_unavailable',
      `Cannot open the embedded store in ${dataDir}: ${(e as Error).message}. If the directory was written by ` +
        'another PGlite/Postgres version or is damaged, move it aside (STAGECRAFT_DATA_DIR) and start afresh.',
      { dataDir },
    );
  }
}

function unreachable(where: string, e: unknown): StoreUnavailableError {
  const err = e as NodeJS.ErrnoException & { code?: string };
  const why = err?.code ? `${err.code}: ${err.message}` : String((e as Error)?.message ?? e);
  return new StoreUnavailableError(
    'store_unreachable',
    `Cannot open the Postgres store at ${where} (${why}). Check that the server is running and DATABASE_URL ` +
      'is right, or unset DATABASE_URL to use the embedded store under ./.stagecraft/.',
    { url: where },
  );
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'ECONNRESET', '3D000', '28P01', '28000']);

function isConnectionError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  const inner = (e as { errors?: unknown[] })?.errors; // AggregateError of each address tried
  return Array.isArray(inner) && inner.some(isConnectionError);
}

function migrationFailed(where: string, e: unknown): StoreUnavailableError {
  return new StoreUnavailableError(
    'store_migration_failed',
    `Applying the database migrations to ${where} failed: ${(e as Error)?.message ?? e}. ` +
      'Run `npm run db:migrate` to see the full error; the migrations in prisma/migrations must apply cleanly.',
    { location: where },
  );
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable DATABASE_URL)';
  }
}

// ---------------------------------------------------------------- the app's singleton

const SINGLETON = Symbol.for('stagecraft.store');
type Holder = { [SINGLETON]?: Promise<OpenedStore> };

/** The process's store, opened on first use; a failed open is retried on the next call. */
export function getStore(): Promise<OpenedStore> {
  const g = globalThis as Holder;
  if (!g[SINGLETON]) {
    const opening = openStore({ onProgress: (message) => console.log(`stagecraft: ${message}…`) });
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
