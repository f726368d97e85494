/**
 * Opening the Postgres store: migrations applied (serialised across processes), Prisma's client
 * imported and made on first use, the commit lanes and the resume's read pool connected at once.
 * Imported only when DATABASE_URL (or a URL) is given, so a process on Postgres never loads PGlite;
 * and a run's reads and writes are plain SQL (the lanes, the read pool), so a process that only
 * drives runs (`stagecraft resume`, `stagecraft worker`) never loads Prisma's client, its runtime or
 * its adapter (~250 ms of CPU to load, most of a resume's start under load): a worker's registry
 * (WorkerRegistry) and its sweep for queued runs are plain SQL on the read pool too.
 */
import pg from 'pg';
import { CommitLanes } from './commit-lanes';
import { LaneClaims } from './claims';
import { deployToPostgres } from './migrate/targets';
import type { DeployResult } from './migrate/migrations';
import { PrismaStore } from './prisma-store';
import { isConnectionError, migrationFailed, redactUrl, unreachable } from './open-errors';
import type { OpenedStore, OpenStoreOptions } from './open-store';

export async function openPostgres(url: string, opts: OpenStoreOptions): Promise<OpenedStore> {
  const where = redactUrl(url);
  let migrations: DeployResult;
  try {
    migrations = await deployToPostgres(url, opts.migrationPaths);
  } catch (e) {
    throw isConnectionError(e) ? unreachable(where, e) : migrationFailed(where, e);
  }
  // Prisma's adapter owns this pool: it listens for idle connections the server closed (a restart,
  // an admin's terminate) and ends the pool on disconnect
  const makeClient = async () => {
    const [{ PrismaPg }, { PrismaClient }] = await Promise.all([import('@prisma/adapter-pg'), import('./generated/prisma/client')]);
    return new PrismaClient({
      adapter: new PrismaPg({ connectionString: url, max: opts.poolSize ?? 10, application_name: 'stagecraft' }),
    });
  };
  const lanes = new CommitLanes(url);
  // the reads a resume makes first (run-reads.ts) and a worker's registry, on a small pool of their own
  const reads = new pg.Pool({ connectionString: url, max: 2, application_name: 'stagecraft-reads' });
  reads.on('error', () => undefined); // an idle connection the server closed: the next read opens another
  // connect now, in parallel: a process that opens the store drives or reads runs next
  lanes.warm();
  void reads.connect().then((c) => c.release(), () => undefined);
  const store = new PrismaStore({
    makeClient,
    claims: new LaneClaims(lanes),
    backend: 'postgres',
    location: where,
    // writes and claims on dedicated per-run lanes (commit-lanes.ts); everything else on Prisma's pool
    apply: (runId, op, direct) => lanes.apply(runId, op, undefined, direct),
    sql: async (text, values) => (await reads.query(text, values)).rows,
    writeStats: () => lanes.stats(),
    onClose: async () => {
      await lanes.close();
      await reads.end().catch(() => undefined);
    },
  });
  return Object.assign(store, { migrations, databaseUrl: url });
}
