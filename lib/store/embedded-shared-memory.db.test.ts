// The embedded database starts with a small shared memory: PGlite zeroes all of it as it starts, in
// baseline Wasm code (~4.5 ms per MB of a command's start), so the store's own start parameters keep
// it small — and a store opened with them still works (a run written, read back after a restart).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { embeddedStartParams, PGLITE_SUBDIR } from './open-embedded';
import { openStore } from './open-store';
import { ev, makeRun } from './testing/fixtures';
import { tempDir } from './testing/pg-test-db';

const dataDir = tempDir();
after(() => dataDir.remove());

/** `SHOW shared_memory_size` in MB ("11MB") */
async function sharedMemoryMb(pgdata: string, startParams: string[]): Promise<number> {
  const db = await PGlite.create(pgdata, { startParams });
  try {
    const { rows } = await db.query<{ s: string }>("SELECT current_setting('shared_memory_size') AS s");
    const m = /^(\d+)MB$/.exec(rows[0].s);
    assert.ok(m, `shared_memory_size in MB: ${rows[0].s}`);
    return Number(m[1]);
  } finally {
    await db.close();
  }
}

describe('the embedded database’s shared memory', () => {
  it('is at most 12 MB with the store’s start parameters (PGlite’s defaults: 128MB of buffers), and the store works with it', async () => {
    const store = await openStore({ dataDir: dataDir.dir });
    const run = makeRun({ id: `run-shm-${process.pid}` });
    await store.createRun(run, { events: [ev(run.id, 1)], snapshot: { runId: run.id, currentPhase: 'draft', seq: 1, data: {} } });
    await store.close();

    const pgdata = path.join(dataDir.dir, PGLITE_SUBDIR);
    const ours = await sharedMemoryMb(pgdata, embeddedStartParams());
    assert.ok(ours <= 12, `shared memory ${ours} MB`);
    assert.ok(ours < (await sharedMemoryMb(pgdata, PGlite.defaultStartParams)), 'smaller than what initdb configured');

    const again = await openStore({ dataDir: dataDir.dir });
    try {
      assert.deepEqual(await again.getRun(run.id), run);
    } finally {
      await again.close();
    }
  });
});
