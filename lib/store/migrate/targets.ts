/**
 * Where migrations are applied: a Postgres server (adapter-pg) or an embedded
 * PGlite, each wrapped as a `DeployTarget`.
 *
 * Owns: the Postgres-side advisory lock that stops two processes from
 * migrating the same database at once (the second waits, then finds nothing
 * pending). Each backend's drivers are imported when it is used: a process on
 * Postgres never loads PGlite, an embedded one never loads pg; and the migration engine's side
 * (Prisma's adapter, its driver utilities: schema-engine.ts) loads only when a migration is pending,
 * so opening an up-to-date database (every `resume`, `run`, worker) never loads it. Does not: guard an embedded data dir (the data-dir lock file in
 * data-dir-lock.ts already makes its process the only one).
 */
import type { PGlite } from '@electric-sql/pglite';
import { deployMigrations, MIGRATE_LOCK_KEY, type DeployResult, type DeployTarget, type MigrationPaths } from './migrations';

/** How long a deploy waits for another process's deploy before giving up. */
const MIGRATE_LOCK_TIMEOUT_MS = 120_000;

/** Applies pending migrations to the Postgres at `url`, serialised across processes. */
export async function deployToPostgres(url: string, paths?: MigrationPaths): Promise<DeployResult> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const target: DeployTarget = {
      factory: async () => {
        const [{ PrismaPg }, { wholeScriptPgFactory }] = await Promise.all([import('@prisma/adapter-pg'), import('./schema-engine')]);
        return wholeScriptPgFactory(new PrismaPg({ connectionString: url, max: 2 }), scratchShadow);
      },
      query: async (sql, params) => (await client.query(sql, params)).rows,
      withLock: async (fn) => {
        await client.query(`SET lock_timeout = ${MIGRATE_LOCK_TIMEOUT_MS}`);
        try {
          await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK_KEY.toString()]);
        } catch (e) {
          throw new Error(
            `another process has been migrating this database for over ${MIGRATE_LOCK_TIMEOUT_MS / 1000} s ` +
              `(advisory lock ${MIGRATE_LOCK_KEY} is held); look for a stuck \`npm run db:migrate\` or app start`,
            { cause: e },
          );
        }
        try {
          return await fn();
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK_KEY.toString()]);
        }
      },
    };
    return await deployMigrations(target, paths);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Applies pending migrations to an open embedded database. Prisma's adapter is imported only when
 * one is pending: a command on an up-to-date data dir (every `run`) never loads it.
 */
export async function deployToPglite(db: PGlite, paths?: MigrationPaths): Promise<DeployResult> {
  const target: DeployTarget = {
    factory: async () => {
      const [{ PrismaPGlite }, { awaitingPgliteFactory }] = await Promise.all([import('pglite-prisma-adapter'), import('./schema-engine')]);
      return awaitingPgliteFactory(new PrismaPGlite(db), db);
    },
    query: async (sql, params) => (await db.query<Record<string, unknown>>(sql, params)).rows,
    withLock: (fn) => fn(),
  };
  return deployMigrations(target, paths);
}

/** `applyMigrations` never needs a shadow database; should the engine ask, it gets a scratch PGlite. */
async function scratchShadow() {
  const [{ PGlite }, { PrismaPGlite }, { awaitingPgliteFactory }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter'), import('./schema-engine')]);
  const db = await PGlite.create();
  const a = await awaitingPgliteFactory(new PrismaPGlite(db), db).connect();
  a.dispose = async () => void (await db.close().catch(() => {}));
  return a;
}
