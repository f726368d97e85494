// A test's throwaway database is named after DB_PREFIX when it is set, as every database a bench makes
// is: people sharing one Postgres server keep theirs apart. It was stagecraft_test_* whatever it said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { ADMIN_URL, createTestDatabase } from './pg-test-db';

test('createTestDatabase names the database after DB_PREFIX, creates it and drops it', async () => {
  const before = process.env.DB_PREFIX;
  process.env.DB_PREFIX = `${before ?? ''}pfx_`;
  const db = await createTestDatabase().finally(() => {
    if (before === undefined) delete process.env.DB_PREFIX;
    else process.env.DB_PREFIX = before;
  });
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    assert.ok(db.name.startsWith(`${before ?? ''}pfx_stagecraft_test_`), db.name);
    assert.equal((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db.name])).rowCount, 1);
  } finally {
    await db.drop();
    assert.equal((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db.name])).rowCount, 0);
    await admin.end();
  }
});
