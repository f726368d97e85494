// Opening the store: the embedded PGlite (one data dir for this file, in
// order: initdb once) and Postgres — migrations on open, restart persistence,
// one process per data dir, stale locks, claims that die with their process.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { closeStore, getStore, openStore } from './open-store';
import { ev, makeRun } from './testing/fixtures';
import { startChild } from './testing/child-process';
import { createTestDatabase, tempDir, type TestDatabase } from './testing/pg-test-db';

const dataDir = tempDir();
const databases: TestDatabase[] = [];
after(async () => {
  dataDir.remove();
  for (const d of databases) await d.drop();
});

describe('openStore: embedded PGlite', () => {
  const runId = `run-persist-${process.pid}`;

  it('creates the data dir, applies the migrations, and keeps data across a restart', async () => {
    const first = await openStore({ dataDir: `${dataDir.dir}/nested/store` });
    assert.equal(first.backend, 'pglite');
    assert.equal(first.migrations.applied.length >= 3, true);
    const run = makeRun({ id: runId });
    await first.createRun(run, { events: [ev(run.id, 1)], snapshot: { runId, currentPhase: 'draft', seq: 1, data: {} } });
    await first.close();
    await first.close(); // idempotent

    const second = await openStore({ dataDir: `${dataDir.dir}/nested/store` });
    try {
      assert.deepEqual(second.migrations, { applied: [], skipped: true });
      assert.deepEqual(await second.getRun(runId), run);
      assert.deepEqual(await second.listResumable(), [runId]);
    } finally {
      await second.close();
    }
  });

  it('STAGECRAFT_DATA_DIR picks the directory when no option is given', async () => {
    const saved = { url: process.env.DATABASE_URL, dir: process.env.STAGECRAFT_DATA_DIR };
    delete process.env.DATABASE_URL;
    process.env.STAGECRAFT_DATA_DIR = `${dataDir.dir}/nested/store`;
    try {
      const store = await openStore();
      try {
        assert.equal(store.location, `${dataDir.dir}/nested/store`);
        assert.ok(await store.getRun(runId));
      } finally {
        await store.close();
      }
      // an empty value counts as unset (the CLI passes STAGECRAFT_DATA_DIR= through as '')
      const fromEmpty = await openStore({ dataDir: '', databaseUrl: '' });
      try {
        assert.equal(fromEmpty.location, `${dataDir.dir}/nested/store`);
      } finally {
        await fromEmpty.close();
      }
    } finally {
      if (saved.url !== undefined) process.env.DATABASE_URL = saved.url;
      if (saved.dir === undefined) delete process.env.STAGECRAFT_DATA_DIR;
      else process.env.STAGECRAFT_DATA_DIR = saved.dir;
    }
  });

  it('getStore is one store per process until closeStore', async () => {
    const saved = { url: process.env.DATABASE_URL, dir: process.env.STAGECRAFT_DATA_DIR };
    delete process.env.DATABASE_URL;
    process.env.STAGECRAFT_DATA_DIR = `${dataDir.dir}/nested/store`;
    try {
      const [a, b] = await Promise.all([getStore(), getStore()]);
      assert.equal(a, b);
      assert.ok(await a.getRun(runId));
      await closeStore();
      const c = await getStore();
      assert.notEqual(c, a);
      assert.ok(await c.getRun(runId));
      await closeStore();
    } finally {
      if (saved.url !== undefined) process.env.DATABASE_URL = saved.url;
      if (saved.dir === undefined) delete process.env.STAGECRAFT_DATA_DIR;
      else process.env.STAGECRAFT_DATA_DIR = saved.dir;
    }
  });

  it('a second process opening the same data dir gets store_locked naming this pid', async () => {
    const store = await openStore({ dataDir: `${dataDir.dir}/nested/store` });
    try {
      await assert.rejects(openStore({ dataDir: `${dataDir.dir}/nested/store` }), { code: 'store_locked' });
      const child = startChild(['open', `${dataDir.dir}/nested/store`]);
      const out = await child.next();
      await child.exited;
      assert.equal(out.ok, false);
      assert.equal(out.code, 'store_locked');
      assert.match(String(out.message), new RegExp(`pid ${process.pid}\\b`));
      assert.match(String(out.message), /STAGECRAFT_DATA_DIR|DATABASE_URL/);
    } finally {
      await store.close();
    }
  });

  it('after its holder is SIGKILLed, the lock is taken over and committed data is there, a lazy commit included', async () => {
    const killedRun = `run-killed-${process.pid}`;
    const holder = startChild(['hold', `${dataDir.dir}/nested/store`, killedRun]);
    try {
      const ready = await holder.next();
      assert.equal(typeof ready.ready, 'number', JSON.stringify(ready));
      await holder.kill();
      const store = await openStore({ dataDir: `${dataDir.dir}/nested/store` });
      try {
        assert.equal((await store.getRun(killedRun))?.id, killedRun);
        // PGlite has no WAL writer: the embedded store writes a lazy unit to disk like any other
        assert.deepEqual((await store.readEvents(killedRun)).map((e) => e.type), ['phase_started', 'run_completed']);
        assert.equal((await store.getRun(killedRun))?.status, 'completed');
      } finally {
        await store.close();
      }
    } finally {
      await holder.kill();
    }
  });
});

describe('openStore: Postgres', () => {
  it('two openers on separate connections migrate a fresh database once (advisory lock)', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    const [a, b] = await Promise.all([openStore({ databaseUrl: db.url }), openStore({ databaseUrl: db.url })]);
    try {
      const applied = [a.migrations.applied, b.migrations.applied].sort((x, y) => y.length - x.length);
      assert.ok(applied[0].length >= 3);
      assert.deepEqual(applied[1], []);
      const rows = await (await a.db()).$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM _prisma_migrations`;
      assert.equal(rows[0].n, applied[0].length);
      assert.equal(a.backend, 'postgres');
    } finally {
      await a.close();
      await b.close();
    }
    const again = await openStore({ databaseUrl: db.url });
    assert.deepEqual(again.migrations, { applied: [], skipped: true });
    await again.close();
  });

  it('a claim dies with its process: SIGKILL the holder and the run can be claimed', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    const store = await openStore({ databaseUrl: db.url });
    const holder = startChild(['claim', db.url, 'run-claimed']);
    try {
      assert.deepEqual(await holder.next(), { claimed: true });
      assert.equal(await store.claimRun('run-claimed'), null);
      await holder.kill();
      let claim = null;
      for (let i = 0; i < 50 && !claim; i++) {
        claim = await store.claimRun('run-claimed');
        if (!claim) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(claim, 'the killed holder’s claim was still held after 5 s');
      await claim.release();
    } finally {
      await holder.kill();
      await store.close();
    }
  });

  it('an unreachable server is store_unreachable, and the message says what to do', async () => {
    await assert.rejects(openStore({ databaseUrl: 'postgresql://postgres:secret@127.0.0.1:1/nowhere' }), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'store_unreachable');
      assert.match(e.message, /ECONNREFUSED/);
      assert.match(e.message, /unset DATABASE_URL/);
      assert.doesNotMatch(e.message, /secret/);
      return true;
    });
  });
});
