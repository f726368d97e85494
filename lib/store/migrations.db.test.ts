// schema.prisma and prisma/migrations must agree: this test fails when someone
// changes one without the other (write the migration with `npm run
// db:migrate:new <name>`). Also shows that `db:check` exits non-zero on drift.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { defaultMigrationPaths, diffHistoryToSchema, readLocalMigrations } from './migrate/migrations';
import { NewerDatabaseError } from './migrate/newer-database';
import { deployToPostgres } from './migrate/targets';
import { LOCK_FILE } from './data-dir-lock';
import { openStore } from './open-store';
import { StoreUnavailableError } from '../kernel/errors';
import { createTestDatabase, tempDir } from './testing/pg-test-db';

const tmp = tempDir('stagecraft-migrations-');
after(() => tmp.remove());
const paths = defaultMigrationPaths();
const root = path.resolve(paths.migrationsDir, '../..');

describe('migrations', () => {
  it('schema.prisma and the migration history agree', async () => {
    const sql = await diffHistoryToSchema(paths);
    assert.equal(sql, '', `schema.prisma has changes no migration makes; run \`npm run db:migrate:new <name>\`:\n${sql}`);
  });

  it('the history is well-formed: timestamped names, a lock file for postgresql', () => {
    const local = readLocalMigrations(paths.migrationsDir);
    assert.ok(local.length >= 3);
    for (const m of local) assert.match(m.name, /^\d{14}_[a-z0-9_]+$/);
    assert.match(readFileSync(path.join(paths.migrationsDir, 'migration_lock.toml'), 'utf8'), /provider = "postgresql"/);
  });

  it('`db:check` exits non-zero and prints the missing SQL when the schema drifts', () => {
    const drifted = path.join(tmp.dir, 'schema.prisma');
    const schema = readFileSync(paths.schemaPath, 'utf8');
    writeFileSync(drifted, schema.replace(/(model Snapshot \{\n)/, '$1  driftColumn String?\n'));
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/db-migrate.ts', 'check', '--schema', drifted, '--migrations', paths.migrationsDir],
      { cwd: root, encoding: 'utf8' },
    );
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /ALTER TABLE "snapshots" ADD COLUMN\s+"driftColumn" TEXT/);
  });

  it('deploy applies each migration once; an applied migration edited later is a warning, not a re-run', async () => {
    const db = await createTestDatabase();
    const copy = path.join(tmp.dir, 'migrations');
    cpSync(paths.migrationsDir, copy, { recursive: true });
    const local = readLocalMigrations(copy);
    const warnings: string[] = [];
    const onWarning = (w: Error & { code?: string }) => void (w.code === 'STAGECRAFT_MIGRATION_EDITED' && warnings.push(w.message));
    process.on('warning', onWarning);
    try {
      const first = await deployToPostgres(db.url, { schemaPath: paths.schemaPath, migrationsDir: copy });
      assert.deepEqual(first.applied, local.map((m) => m.name));
      appendFileSync(path.join(copy, local[0].name, 'migration.sql'), '\n-- edited afterwards\n');
      const second = await deployToPostgres(db.url, { schemaPath: paths.schemaPath, migrationsDir: copy });
      assert.deepEqual(second, { applied: [], skipped: true });
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], new RegExp(local[0].name));
    } finally {
      process.off('warning', onWarning);
      await db.drop();
    }
  });

  it('autovacuum leaves the store tables unmeasured until 1,000 rows changed (a tiny table\'s plans, kept, scan it whole)', async () => {
    // see prisma/migrations/*_tiny_tables_not_analyzed: at autovacuum's default (50 rows) a fresh
    // store's tables were analyzed at a page or two, and every kept plan became a sequential scan
    const db = await createTestDatabase();
    try {
      const store = await openStore({ databaseUrl: db.url });
      try {
        const rows = await (await store.db()).$queryRaw<{ relname: string; reloptions: string[] | null }[]>`
          SELECT relname::text AS relname, reloptions FROM pg_class
           WHERE relname IN ('runs', 'events', 'snapshots', 'stage_traces', 'workspace_artifacts') AND relkind = 'r'
           ORDER BY relname`;
        assert.deepEqual(
          rows.map((r) => [r.relname, [...(r.reloptions ?? [])].sort()]),
          ['events', 'runs', 'snapshots', 'stage_traces', 'workspace_artifacts'].map((t) => [
            t,
            ['autovacuum_analyze_threshold=1000', 'autovacuum_vacuum_threshold=1000'],
          ]),
        );
      } finally {
        await store.close();
      }
    } finally {
      await db.drop();
    }
  });

  it('an older Stagecraft refuses a database a newer one migrated: what happened and what to do, nothing applied', async () => {
    // "older": this history without its last migration, on a database that has all of them
    const older = path.join(tmp.dir, 'older');
    cpSync(paths.migrationsDir, older, { recursive: true });
    const local = readLocalMigrations(older);
    const newest = local.at(-1)!.name;
    rmSync(path.join(older, newest), { recursive: true });
    const olderPaths = { schemaPath: paths.schemaPath, migrationsDir: older };

    const db = await createTestDatabase();
    try {
      await deployToPostgres(db.url, paths);
      await assert.rejects(deployToPostgres(db.url, olderPaths), (e: unknown) => e instanceof NewerDatabaseError && e.unknown.join() === newest);
      await assert.rejects(
        openStore({ databaseUrl: db.url, migrationPaths: olderPaths }),
        (e: unknown) => e instanceof StoreUnavailableError && e.code === 'store_newer_than_stagecraft' && e.message.includes(newest) && /Upgrade Stagecraft/.test(e.message) && /DATABASE_URL/.test(e.message),
      );
    } finally {
      await db.drop();
    }

    const dataDir = path.join(tmp.dir, 'embedded');
    await (await openStore({ dataDir })).close();
    await assert.rejects(
      openStore({ dataDir, migrationPaths: olderPaths }),
      (e: unknown) => e instanceof StoreUnavailableError && e.code === 'store_newer_than_stagecraft' && e.message.includes(dataDir) && /STAGECRAFT_DATA_DIR/.test(e.message),
    );
    assert.equal(existsSync(path.join(dataDir, LOCK_FILE)), false, 'the data dir is not left locked');
    const reopened = await openStore({ dataDir }); // the newer version still opens it
    assert.equal(reopened.migrations.skipped, true);
    await reopened.close();
  });
});
