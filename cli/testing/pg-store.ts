/**
 * For CLI tests on Postgres: a throwaway database for the file, made `DATABASE_URL` for the commands it
 * spawns, and a store opened on it for the test to read; both gone after the file's tests.
 */
import { after, before } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../../lib/store/testing/pg-test-db';
import { openStore, type OpenedStore } from '../../lib/store';

export function usePgTestStore(): { store(): OpenedStore } {
  let db: TestDatabase | undefined;
  let store: OpenedStore | undefined;
  before(async () => {
    db = await createTestDatabase();
    process.env.DATABASE_URL = db.url;
    store = await openStore({ databaseUrl: db.url });
  });
  after(async () => {
    await store?.close();
    delete process.env.DATABASE_URL;
    await db?.drop();
  });
  return {
    store: () => {
      if (!store) throw new Error('the test store is opened in before()');
      return store;
    },
  };
}
