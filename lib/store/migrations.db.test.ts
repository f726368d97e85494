// schema.prisma and prisma/migrations must agree: this test fails when someone
// changes one without the other (write the migration with `npm run
// db:migrate:new <name>`). Also shows that `db:check` exits non-zero on drift.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { defaultMigrationPaths, diffHistoryToSchema, readLocalMigrations } from './migrate/migrations';
import { tempDir } from './testing/pg-test-db';

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
});
