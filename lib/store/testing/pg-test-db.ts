/**
 * Throwaway Postgres databases and data dirs for *.db.test.ts.
 *
 * Owns: creating `<DB_PREFIX>stagecraft_test_<pid>_<n>` on the server named by
 * STAGECRAFT_TEST_PG_URL (default: postgres@127.0.0.1:5432, trust auth) and
 * dropping it (WITH FORCE) when the test file is done. Does not: skip when the
 * server is missing — a database test that cannot reach its database fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const ADMIN_URL = process.env.STAGECRAFT_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

let counter = 0;

export type TestDatabase = { url: string; name: string; drop(): Promise<void> };

/** `adminUrl`: another server than the shared one (a test's private server, private-pg.ts) */
export async function createTestDatabase(adminUrl = ADMIN_URL): Promise<TestDatabase> {
  // DB_PREFIX: whoever shares the server names every database they make apart (as bench/compare.sh does)
  const name = `${process.env.DB_PREFIX ?? ''}stagecraft_test_${process.pid}_${++counter}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (e) {
    throw new Error(
      `database tests need a Postgres server at ${adminUrl} (set STAGECRAFT_TEST_PG_URL): ${(e as Error).message}`,
    );
  }
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

export function tempDir(prefix = 'stagecraft-store-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
