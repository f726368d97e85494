/**
 * Opening the embedded store: PGlite under the data dir (locked to this process: data-dir-lock.ts),
 * seeded from the install's template on first use (embedded-template.ts), migrations applied, and
 * Prisma's client made on first use. Imported only when no database URL is given, so an embedded
 * process never loads pg.
 */
import { existsSync, mkdirSync, readdirSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { StoreUnavailableError } from '../kernel/errors';
import { LocalClaims } from './claims';
import { acquireDataDirLock } from './data-dir-lock';
import { EmbeddedLine } from './embedded-line';
import { removeAbandonedSeeds, seedFromTemplate } from './embedded-template';
import { PrismaClient } from './generated/prisma/client';
import { deployToPglite } from './migrate/targets';
import type { DeployResult } from './migrate/migrations';
import { PrismaStore } from './prisma-store';
import { migrationFailed } from './open-errors';
import type { OpenedStore, OpenStoreOptions } from './open-store';

/** the PGlite cluster's directory inside the data dir (the lock file sits beside it) */
export const PGLITE_SUBDIR = 'pglite';
/**
 * Postgres's buffer cache in the embedded database. initdb writes 128MB, and PGlite touches all of
 * it as it starts: 100 MB of resident memory in every CLI command that opens the store. The
 * embedded store holds one person's runs; pages it evicts are still in the OS's file cache.
 */
export const EMBEDDED_SHARED_BUFFERS = '16MB';

export async function openEmbedded(dataDir: string, opts: OpenStoreOptions): Promise<OpenedStore> {
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
    const prisma = () => new PrismaClient({ adapter: new PrismaPGlite(line.gated()) });
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
