/**
 * The store on both backends, for a test file that holds them to the same answers: an embedded
 * PGlite in a data dir of its own, and a throwaway Postgres database (pg-test-db.ts). Call it at the
 * top of the file: both are removed when the file is done.
 */
import { after } from 'node:test';
import { openStore, type OpenedStore } from '../open-store';
import { createTestDatabase, tempDir, type TestDatabase } from './pg-test-db';

export function bothBackends(): [string, () => Promise<OpenedStore>][] {
  const dataDir = tempDir();
  let database: TestDatabase | null = null;
  after(async () => {
    await database?.drop();
    dataDir.remove();
  });
  return [
    ['PGlite', () => openStore({ dataDir: dataDir.dir })],
    [
      'Postgres',
      async () => {
        database = await createTestDatabase();
        return openStore({ databaseUrl: database.url });
      },
    ],
  ];
}
