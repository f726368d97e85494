/**
 * The migration history (`prisma/migrations/*`) and what can be done with it
 * offline: apply it to a database, diff it against `schema.prisma`, author the
 * next migration.
 *
 * Owns: reading the history from disk, the "is anything pending?" fast path
 * (a plain query on `_prisma_migrations`, so opening an up-to-date database
 * never loads the 5 MB Wasm engine), serialising concurrent deploys with a
 * Postgres advisory lock, and authoring/diffing on a scratch in-memory PGlite
 * (adapter-pg cannot introspect: it does not map the `char` type).
 *
 * Does not: open the store (open-store.ts) or parse CLI arguments
 * (scripts/db-migrate.ts). The bookkeeping in `_prisma_migrations` is the
 * engine's own, so a native `prisma migrate deploy` would see the same history.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MigrationList } from '@prisma/schema-engine-wasm';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
// the engine's side (Prisma's driver utilities, the Wasm engine) is imported when a migration is pending or
// authored: opening an up-to-date database never loads it
import type { openSchemaEngine } from './schema-engine';
import { NewerDatabaseError } from './newer-database';

export const LOCKFILE_NAME = 'migration_lock.toml';
const NO_FILTERS = { externalTables: [], externalEnums: [] };

/** `prisma/` of this checkout: beside lib/, or under the working directory when bundled elsewhere. */
export function prismaDir(): string {
  const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../prisma');
  if (existsSync(path.join(here, 'schema.prisma'))) return here;
  return path.resolve(process.cwd(), 'prisma');
}

export type MigrationPaths = { schemaPath: string; migrationsDir: string };

export function defaultMigrationPaths(): MigrationPaths {
  const dir = prismaDir();
  return { schemaPath: path.join(dir, 'schema.prisma'), migrationsDir: path.join(dir, 'migrations') };
}

export type LocalMigration = { name: string; sql: string; checksum: string };

/** The migrations on disk, oldest first (directory names sort by their timestamp prefix). */
export function readLocalMigrations(migrationsDir: string): LocalMigration[] {
  if (!existsSync(migrationsDir)) return [];
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(migrationsDir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(migrationsDir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export function migrationList(migrationsDir: string, local = readLocalMigrations(migrationsDir)): MigrationList {
  const lockPath = path.join(migrationsDir, LOCKFILE_NAME);
  return {
    baseDir: migrationsDir,
    lockfile: { path: LOCKFILE_NAME, content: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: local.map((m) => ({
      path: m.name,
      migrationFile: { path: 'migration.sql', content: { tag: 'ok' as const, value: m.sql } },
    })),
  };
}

/** Runs one query and returns its rows; how migrations.ts reads a database without Prisma. */
export type QueryFn = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export type MigrationState = {
  /** local migrations the database has not finished applying (all of them on a fresh database) */
  pending: string[];
  /** applied migrations whose file has changed since: the history was edited */
  edited: string[];
  /** applied migrations this history does not have: a newer Stagecraft wrote the database */
  unknown: string[];
};


export async function migrationState(query: QueryFn, local: LocalMigration[]): Promise<MigrationState> {
  const [{ exists }] = (await query(`SELECT to_regclass('_prisma_migrations') IS NOT NULL AS "exists"`)) as [
    { exists: boolean },
  ];
  if (!exists) return { pending: local.map((m) => m.name), edited: [], unknown: [] };
  const rows = (await query(
    `SELECT migration_name, checksum FROM _prisma_migrations
      WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  )) as { migration_name: string; checksum: string }[];
  const applied = new Map(rows.map((r) => [r.migration_name, r.checksum]));
  return {
    pending: local.filter((m) => !applied.has(m.name)).map((m) => m.name),
    edited: local.filter((m) => applied.has(m.name) && applied.get(m.name) !== m.checksum).map((m) => m.name),
    unknown: [...applied.keys()].filter((name) => !local.some((m) => m.name === name)).sort(),
  };
}

/** Advisory lock key that serialises `deploy` across processes ("stgcraft" in ASCII). */
export const MIGRATE_LOCK_KEY = 0x7374676372616674n;

export type DeployTarget = {
  /** the schema engine's driver adapter, made only when a migration is pending (its modules are imported then) */
  factory: () => Promise<SqlMigrationAwareDriverAdapterFactory>;
  query: QueryFn;
  /** runs `fn` while holding a cross-process lock (Postgres: a session advisory lock) */
  withLock<T>(fn: () => Promise<T>): Promise<T>;
};

export type DeployResult = { applied: string[]; skipped: boolean };

/**
 * Applies what is pending; idempotent. Checks first without the engine and
 * without the lock; checks again under the lock, since another process may
 * have migrated in between. An applied migration edited since is not applied
 * again (as `prisma migrate deploy` would not): it is reported as a warning.
 * A database holding migrations this history does not have was written by a
 * newer Stagecraft, whose data this one may misread or damage: NewerDatabaseError,
 * and nothing is applied.
 */
export async function deployMigrations(target: DeployTarget, paths = defaultMigrationPaths()): Promise<DeployResult> {
  const local = readLocalMigrations(paths.migrationsDir);
  const state = await migrationState(target.query, local);
  if (state.unknown.length) throw new NewerDatabaseError(state.unknown);
  if (state.edited.length) {
    process.emitWarning(
      `migrations edited after they were applied: ${state.edited.join(', ')}. The history is append-only: ` +
        'revert the edit and put the change in a new migration (npm run db:migrate:new <name>).',
      { code: 'STAGECRAFT_MIGRATION_EDITED' },
    );
  }
  if (state.pending.length === 0) return { applied: [], skipped: true };
  return target.withLock(async () => {
    if ((await migrationState(target.query, local)).pending.length === 0) return { applied: [], skipped: true };
    const schema = readFileSync(/*turbopackIgnore: true*/ paths.schemaPath, 'utf8');
    const { openSchemaEngine } = await import('./schema-engine');
    const { engine, dispose } = await openSchemaEngine(await target.factory(), [[paths.schemaPath, schema]]);
    try {
      const out = await engine.applyMigrations({ migrationsList: migrationList(paths.migrationsDir, local), filters: NO_FILTERS });
      return { applied: out.appliedMigrationNames, skipped: false };
    } finally {
      await dispose();
    }
  });
}

/** A scratch in-memory PGlite: where migrations are authored and diffed (it is also its own shadow). */
async function withScratchEngine<T>(
  schemaPath: string,
  fn: (engine: Awaited<ReturnType<typeof openSchemaEngine>>['engine'], schema: string) => Promise<T>,
): Promise<T> {
  const [{ PGlite }, { PrismaPGlite }, { awaitingPgliteFactory, openSchemaEngine }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('pglite-prisma-adapter'),
    import('./schema-engine'),
  ]);
  const db = await PGlite.create();
  const schema = readFileSync(schemaPath, 'utf8');
  const factory = awaitingPgliteFactory(new PrismaPGlite(db), db);
  // the scratch database is also the shadow: one PGlite initdb instead of two
  factory.connectToShadowDb = () => factory.connect();
  const opened = await openSchemaEngine(factory, [[schemaPath, schema]]);
  try {
    return await fn(opened.engine, schema);
  } finally {
    await opened.dispose();
    await db.close();
  }
}

/**
 * The SQL that would take a database built from the migration history to
 * `schema.prisma`; empty when they agree. Only what Prisma models is compared:
 * the hand-written triggers, CHECKs and functions are invisible to it.
 */
export async function diffHistoryToSchema(paths = defaultMigrationPaths()): Promise<string> {
  const local = readLocalMigrations(paths.migrationsDir);
  return withScratchEngine(paths.schemaPath, async (engine, schema) => {
    const res = await engine.diff({
      from: local.length ? { tag: 'migrations', ...migrationList(paths.migrationsDir, local) } : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: [{ path: paths.schemaPath, content: schema }] },
      script: true,
      exitCode: true,
      filters: NO_FILTERS,
    });
    const sql = (res.stdout ?? '').trim();
    return res.exitCode === 0 || /^-- This is an empty migration\.?$/.test(sql) ? '' : sql;
  });
}

export type CreatedMigration = { name: string; dir: string; sql: string } | null;

/**
 * Writes `<migrationsDir>/<UTC timestamp>_<name>/migration.sql` with what the
 * schema adds to the history, or an empty file to fill by hand (`empty`).
 * Returns null when there is nothing to write.
 */
export async function createMigration(
  name: string,
  opts: { empty?: boolean; now?: Date } = {},
  paths = defaultMigrationPaths(),
): Promise<CreatedMigration> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`migration name "${name}": use lower-case letters, digits and _`);
  const sql = opts.empty ? '-- hand-written migration: Prisma does not model what follows\n' : await diffHistoryToSchema(paths);
  if (!sql) return null;
  const stamp = (opts.now ?? new Date()).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const dirName = `${stamp}_${name}`;
  const dir = path.join(paths.migrationsDir, dirName);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'migration.sql'), sql.endsWith('\n') ? sql : `${sql}\n`);
  const lock = path.join(paths.migrationsDir, LOCKFILE_NAME);
  if (!existsSync(lock)) {
    writeFileSync(
      lock,
      '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
    );
  }
  return { name: dirName, dir, sql };
}
