// The embedded database's shared memory: PGlite zeroes all of it as it starts, in baseline Wasm code
// (~4.5 ms per MB of the opener's start). A store opened for one command (the CLI) keeps it small, one
// opened by a process that stays (the app) keeps a larger buffer cache — and a store opened either way
// works (a run written, read back after a restart).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { embeddedStartParams, PGLITE_SUBDIR } from './open-embedded';
import { COMMAND_SHARED_BUFFERS, openStore, type OpenedStore } from './open-store';
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

/** the buffer cache the opened store's database runs with */
async function sharedBuffersOf(store: OpenedStore): Promise<string> {
  const rows = await (await store.db()).$queryRaw<{ s: string }[]>`SELECT current_setting('shared_buffers') AS s`;
  return rows[0].s;
}

describe('the embedded database’s shared memory', () => {
  it('is at most 12 MB for a command (PGlite’s defaults: 128MB of buffers), 16MB of buffers for the app, and the store works with either', async () => {
    const store = await openStore({ dataDir: dataDir.dir, sharedBuffers: COMMAND_SHARED_BUFFERS });
    const run = makeRun({ id: `run-shm-${process.pid}` });
    try {
      assert.equal(await sharedBuffersOf(store), '4MB');
      await store.createRun(run, { events: [ev(run.id, 1)], snapshot: { runId: run.id, currentPhase: 'draft', seq: 1, data: {} } });
    } finally {
      await store.close();
    }

    const pgdata = path.join(dataDir.dir, PGLITE_SUBDIR);
    const ours = await sharedMemoryMb(pgdata, embeddedStartParams(COMMAND_SHARED_BUFFERS));
    assert.ok(ours <= 12, `shared memory ${ours} MB`);
    assert.ok(ours < (await sharedMemoryMb(pgdata, PGlite.defaultStartParams)), 'smaller than what initdb configured');

    const again = await openStore({ dataDir: dataDir.dir });
    try {
      assert.equal(await sharedBuffersOf(again), '16MB', 'the default, for a process that stays');
      assert.deepEqual(await again.getRun(run.id), run);
    } finally {
      await again.close();
    }
  });
});
