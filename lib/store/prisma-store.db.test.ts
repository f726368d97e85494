// PrismaStore against an embedded PGlite (one temp data dir for the whole file:
// initdb costs seconds) and a real Postgres (a database of its own): the shared
// contract, then what only a database has — the append-only trigger, racing
// writers, values Postgres refuses, claims across connections, skill versions.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openStore, type OpenedStore } from './open-store';
import { PrismaStore } from './prisma-store';
import { LocalClaims } from './claims';
import { describeStoreContract } from './store-contract';
import { describeSkillRepoContract } from './skills-contract';
import { bundleHash } from './skills';
import { artifact, ev, makeRun } from './testing/fixtures';
import { SkillNotFoundError } from '../kernel/errors';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, tempDir, type TestDatabase } from './testing/pg-test-db';

const once = <T>(f: () => Promise<T>) => {
  let p: Promise<T> | null = null;
  return () => (p ??= f());
};

const dataDir = tempDir();
let database: TestDatabase | null = null;
const pglite = once(() => openStore({ dataDir: dataDir.dir }));
const postgres = once(async () => {
  database = await createTestDatabase();
  return openStore({ databaseUrl: database.url });
});

after(async () => {
  await (await pglite().catch(() => null))?.close();
  await (await postgres().catch(() => null))?.close();
  await database?.drop();
  dataDir.remove();
});

describeStoreContract('PrismaStore on PGlite', pglite, { closeAfter: false });
describeStoreContract('PrismaStore on Postgres', postgres, { closeAfter: false });

for (const [name, open] of [['PGlite', pglite], ['Postgres', postgres]] as const) {
  describe(`PrismaStore on ${name}: what the database enforces`, () => {
    it('events cannot be updated, deleted or truncated', async () => {
      const store = await open();
      const run = makeRun();
      await store.createRun(run, { events: [ev(run.id, 1), ev(run.id, 2)] });
      await assert.rejects(
        (await store.db()).$executeRaw`UPDATE "events" SET "type" = 'rewritten' WHERE "run_id" = ${run.id}`,
        /append-only: UPDATE/,
      );
      await assert.rejects((await store.db()).$executeRaw`DELETE FROM "events" WHERE "run_id" = ${run.id}`, /append-only: DELETE/);
      await assert.rejects((await store.db()).$executeRaw`TRUNCATE "events" CASCADE`, /append-only: TRUNCATE/);
      await assert.rejects((await store.db()).$executeRaw`DELETE FROM "runs" WHERE "id" = ${run.id}`, /runs are kept: DELETE of run/);
      assert.deepEqual((await store.readEvents(run.id)).map((e) => [e.seq, e.type]), [
        [1, 'phase_started'],
        [2, 'phase_started'],
      ]);
    });

    it('a log is gap-free from 1 whoever writes it: an event that does not continue it is refused', async () => {
      const store = await open();
      const run = makeRun();
      await store.createRun(run, { events: [ev(run.id, 1), ev(run.id, 2)] });
      const insert = async (seq: number) =>
        (await store.db()).$executeRaw`INSERT INTO "events" ("run_id", "seq", "type", "at", "data") VALUES (${run.id}, ${seq}, 'note', now(), '{}'::json)`;
      await assert.rejects(insert(4), /event 4 of run .* does not continue its log: there is no event 3/);
      await assert.rejects(insert(0), /events_seq_check/, 'a seq below 1 is refused, named as by its former CHECK');
      const other = makeRun();
      await store.createRun(other, { events: [ev(other.id, 1)] });
      await assert.rejects(
        (await store.db()).$executeRaw`INSERT INTO "events" ("run_id", "seq", "type", "at", "data") VALUES (${other.id}, 3, 'note', now(), '{}'::json)`,
        /there is no event 2/,
        "another run's events do not fill the gap",
      );
      assert.equal(await insert(3), 1);
      assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1, 2, 3]);
    });

    it("an event's data is an object and its seq at least 1, whoever writes it: the statement is refused whole, named as by the former CHECKs", async () => {
      const store = await open();
      const db = await store.db();
      const run = makeRun();
      await store.createRun(run, { events: [ev(run.id, 1), ev(run.id, 2)] });
      const insert = (seq: number, data: string) =>
        db.$executeRaw`INSERT INTO "events" ("run_id", "seq", "type", "at", "data") VALUES (${run.id}, ${seq}, 'note', now(), ${data}::json)`;
      for (const data of ['[]', 'null', '"text"', '3']) {
        await assert.rejects(insert(3, data), (e: unknown) => /violates check constraint "events_data_check"/.test(String(e)) && /23514/.test(JSON.stringify(e) + String(e)), data);
      }
      await assert.rejects(insert(-1, '{}'), /events_seq_check/);
      // a valid event beside a refused one: nothing of the statement is written
      await assert.rejects(
        db.$executeRaw`INSERT INTO "events" ("run_id", "seq", "type", "at", "data") VALUES (${run.id}, 3, 'note', now(), '{}'::json), (${run.id}, 4, 'note', now(), '[1]'::json)`,
        /events_data_check/,
      );
      // and a run's first event is held to it too (here a run inserted by hand, its log empty)
      const bare = makeRun();
      await db.$executeRaw`INSERT INTO "runs" ("id", "skill_name", "skill_hash", "skill_text", "bundle_dir", "input", "model", "status", "created_at", "updated_at")
                           VALUES (${bare.id}, 's', 'h', 't', '/b', '{}', 'm', 'running', now(), now())`;
      await assert.rejects(db.$executeRaw`INSERT INTO "events" ("run_id", "seq", "type", "at", "data") VALUES (${bare.id}, 1, 'note', now(), '[]'::json)`, /events_data_check/);
      assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1, 2]);
      assert.deepEqual(await store.readEvents(bare.id), []);
      assert.equal(await insert(3, '{"k":[1]}'), 1);
      assert.deepEqual((await store.readEvents(run.id)).map((e) => [e.seq, e.data]), [[1, ev(run.id, 1).data], [2, ev(run.id, 2).data], [3, { k: [1] }]]);
    });

    it("no event of a run that is not there, whoever writes it: checked at the run's first event", async () => {
      const store = await open();
      const db = await store.db();
      const insert = (runId: string, seq: number) =>
        db.$executeRaw`INSERT INTO "events" ("run_id", "seq", "type", "at", "data") VALUES (${runId}, ${seq}, 'note', now(), '{}'::json)`;
      // a psql-like writer: no foreign key now, the gap-free trigger names the missing run (SC002), at seq 1 or later
      await assert.rejects(insert('run-nowhere', 1), /no run run-nowhere in the store/);
      await assert.rejects(insert('run-nowhere', 3), /no run run-nowhere in the store/);
      await assert.rejects(
        db.$executeRaw`INSERT INTO "events" ("run_id", "seq", "type", "at", "data") SELECT 'run-nowhere', s, 'note', now(), '{}'::json FROM generate_series(1, 3) s`,
        /no run run-nowhere in the store/,
        'a whole log of an unknown run in one statement',
      );
      assert.deepEqual(await db.$queryRaw`SELECT 1 FROM "events" WHERE "run_id" = 'run-nowhere'`, []);
      // the store's own paths: the commit functions and a direct write answer RunNotFoundError
      await assert.rejects(store.commit('run-nowhere', { events: [ev('run-nowhere', 1)] }), { code: 'run_not_found' });
      await assert.rejects(store.commit('run-nowhere', { events: [ev('run-nowhere', 2)] }), { code: 'run_not_found' });
      // once the run is there (inserted by hand here), its first event is accepted
      const run = makeRun();
      await db.$executeRaw`INSERT INTO "runs" ("id", "skill_name", "skill_hash", "skill_text", "bundle_dir", "input", "model", "status", "created_at", "updated_at")
                           VALUES (${run.id}, 's', 'h', 't', '/b', '{}', 'm', 'running', now(), now())`;
      assert.equal(await insert(run.id, 1), 1);
      assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1]);
    });

    it('a run, once there, stays: its row is never deleted, renamed or truncated', async () => {
      const store = await open();
      const db = await store.db();
      const run = makeRun();
      await store.createRun(run, { events: [ev(run.id, 1)] });
      await assert.rejects(db.$executeRaw`DELETE FROM "runs" WHERE "id" = ${run.id}`, /runs are kept: DELETE of run/);
      await assert.rejects(db.$executeRaw`UPDATE "runs" SET "id" = 'elsewhere' WHERE "id" = ${run.id}`, /runs are kept: UPDATE of run/);
      await assert.rejects(db.$executeRaw`TRUNCATE "runs" CASCADE`, /runs are kept: TRUNCATE|append-only: TRUNCATE/);
      // an update that leaves the id as it is goes through
      assert.equal(await db.$executeRaw`UPDATE "runs" SET "id" = "id", "model" = 'm2' WHERE "id" = ${run.id}`, 1);
      assert.equal((await store.getRun(run.id))?.model, 'm2');
      assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1]);
    });

    it("a new run's first unit is judged as any commit: a gap is refused and nothing of the run is kept", async () => {
      const store = await open();
      const run = makeRun();
      await assert.rejects(store.createRun(run, { events: [ev(run.id, 2)] }), { code: 'seq_gap' });
      await assert.rejects(store.createRun(run, { events: [ev(run.id, 1), ev(run.id, 3)] }), { code: 'seq_gap' });
      assert.equal(await store.getRun(run.id), null);
      await store.createRun(run, { events: [ev(run.id, 1), ev(run.id, 2)], snapshot: { runId: run.id, currentPhase: 'p', seq: 2, data: { a: 1 } } });
      assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1, 2]);
      assert.deepEqual(await store.commit(run.id, { events: [ev(run.id, 3)] }), { kind: 'committed' });
      await assert.rejects(store.createRun(run, { events: [ev(run.id, 1)] }), { code: 'run_exists' });
    });

    it('racing writers of the same seq: one commits, the others get the conflict', async () => {
      const store = await open();
      const run = makeRun();
      await store.createRun(run, { events: [ev(run.id, 1)] });
      const results = await Promise.all(
        [0, 1, 2, 3, 4, 5, 6, 7].map((i) =>
          store.commit(run.id, {
            events: [ev(run.id, 2, 'step_completed', { writer: i }), ev(run.id, 3, 'step_completed', { writer: i })],
            artifacts: [{ runId: run.id, path: `w${i}`, content: i, sha256: 'x', size: 1, createdAt: 1 }],
          }),
        ),
      );
      const committed = results.filter((r) => r.kind === 'committed');
      assert.equal(committed.length, 1);
      const events = await store.readEvents(run.id);
      assert.deepEqual(events.map((e) => e.seq), [1, 2, 3]);
      const winner = events[1].data.writer;
      for (const r of results) {
        if (r.kind === 'conflict') assert.deepEqual(r.recorded, events.slice(1));
      }
      assert.deepEqual((await store.listArtifacts(run.id)).map((a) => a.path), [`w${winner}`]);
    });

    it('a NUL character in a text column is refused with a store error, and nothing is applied', async () => {
      const store = await open();
      const run = makeRun();
      await store.createRun(run, { events: [ev(run.id, 1)] });
      for (const type of ['step\u0000completed', 'half \ud800 pair']) {
        await assert.rejects(
          store.commit(run.id, { events: [ev(run.id, 2, type)], run: { status: 'failed' } }),
          (e: Error & { code?: string }) => e.code === 'store_value_unsupported' && /Postgres cannot store/.test(e.message),
        );
      }
      assert.equal((await store.getRun(run.id))?.status, 'running');
      assert.equal((await store.readEvents(run.id)).length, 1);
    });

    it('store errors carry codes: run_exists, seq_gap, run_not_found', async () => {
      const store = await open();
      const run = makeRun();
      await store.createRun(run, { events: [ev(run.id, 1)] });
      await assert.rejects(store.createRun(run, { events: [] }), { code: 'run_exists' });
      await assert.rejects(store.commit(run.id, { events: [ev(run.id, 5)] }), { code: 'seq_gap' });
      await assert.rejects(store.commit('nope', { events: [] }), { code: 'run_not_found' });
    });

    it('a CHECK refuses a status outside the port vocabulary', async () => {
      const store = await open();
      const run = makeRun();
      await store.createRun(run, { events: [ev(run.id, 1)] });
      await assert.rejects(store.commit(run.id, { events: [], run: { status: 'paused' as never } }), /runs_status_check/);
    });

    it('the migration computes a one-file bundle hash as bundleHash does (versions saved before bundles)', async () => {
      const store = await open();
      const text = '---\nname: ü ☃ 𝄞\n---\r\nbody\n';
      const rows = await (await store.db()).$queryRawUnsafe<{ h: string }[]>(
        `SELECT encode(sha256(convert_to('skill.md' || E'\\n' || encode(sha256(convert_to($1::text, 'UTF8')), 'hex') || E'\\n', 'UTF8')), 'hex') AS h`,
        text,
      );
      assert.equal(rows[0].h, bundleHash({ 'skill.md': text }));
    });
  });
}

describeSkillRepoContract('PrismaSkillRepo on PGlite', async () => {
  const store = await pglite();
  return { repo: store.skills, store };
});
describeSkillRepoContract('PrismaSkillRepo on Postgres', async () => {
  const store = await postgres();
  return { repo: store.skills, store };
});

describe('PrismaStore on Postgres: claims across connections', () => {
  it('a second store (another connection) cannot claim a held run until it is released', async () => {
    const first = await postgres();
    const second: OpenedStore = await openStore({ databaseUrl: database!.url });
    try {
      const run = makeRun();
      await first.createRun(run, { events: [ev(run.id, 1)] });
      const held = await first.claimRun(run.id);
      assert.ok(held);
      assert.equal(await second.claimRun(run.id), null);
      // each knows only its own claims: the first drives the run, the second does not
      assert.equal(first.holdsClaim(run.id), true);
      assert.equal(second.holdsClaim(run.id), false);
      await held.release();
      assert.equal(first.holdsClaim(run.id), false);
      const taken = await second.claimRun(run.id);
      assert.ok(taken);
      assert.equal(await first.claimRun(run.id), null);
      await second.close(); // closing drops its claims with its connection
      const back = await first.claimRun(run.id);
      assert.ok(back);
      await back.release();
    } finally {
      await second.close();
    }
  });
});

/** a store of the embedded kind on `opened`'s plain-SQL driver (each statement noted), whose Prisma client fails `why` if made */
function onDriverOnly(opened: OpenedStore, why: string): { store: PrismaStore; statements: string[] } {
  const driver = opened.sql;
  assert.ok(driver, 'the embedded store has its plain-SQL driver');
  const statements: string[] = [];
  const store = new PrismaStore({
    makeClient: () => assert.fail(why),
    sql: (text, values) => (statements.push(text), driver(text, values)),
    apply: async () => assert.fail('no writes here'),
    claims: new LocalClaims(),
    backend: 'pglite',
    location: 'test',
  });
  return { store, statements };
}

describe("PrismaStore's client, made on first use", () => {
  it('is made once for callers at the same moment, says a failed load as it is and tries again', async () => {
    const real = await (await pglite()).db();
    let loads = 0;
    let fail = true;
    const store = new PrismaStore({
      makeClient: async () => {
        loads++;
        if (fail) throw new Error("Cannot find package 'pglite-prisma-adapter'");
        return real;
      },
      apply: async () => assert.fail('no writes here'),
      claims: new LocalClaims(),
      backend: 'pglite',
      location: 'test',
    });
    assert.equal(loads, 0, 'nothing is made before someone asks');
    await assert.rejects(store.skills.skillNames(), /Cannot find package 'pglite-prisma-adapter'/);
    fail = false;
    const [a, b] = await Promise.all([store.db(), store.skills.skillNames()]);
    assert.equal(a, real);
    assert.ok(Array.isArray(b));
    assert.equal(loads, 2, 'the failed load, then one for both callers');
    assert.equal(await store.db(), real);
    assert.equal(loads, 2);
  });

  it('lists resumable runs in plain SQL where it has a line, never making the client (the app boot asks first thing)', async () => {
    const opened = await pglite();
    const real = await opened.db();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const run = makeRun();
      ids.push(run.id);
      await opened.createRun(run, { events: [ev(run.id, 1)], snapshot: { runId: run.id, currentPhase: 'a', seq: 1, data: {} } });
    }
    await opened.commit(ids[1], { events: [], snapshot: 'delete' });
    const store = new PrismaStore({
      makeClient: () => assert.fail("listResumable made Prisma's client"),
      sql: (text, values) => real.$queryRawUnsafe<Record<string, unknown>[]>(text, ...values),
      apply: async () => assert.fail('no writes here'),
      claims: new LocalClaims(),
      backend: 'pglite',
      location: 'test',
    });
    assert.deepEqual((await store.listResumable()).filter((id) => ids.includes(id)), [ids[0], ids[2]]);
  });

  it("reads a run's status alone in plain SQL on the embedded store's line, its input, output and report left unread (an event page, a stream)", async () => {
    const opened = await pglite();
    const run = makeRun({ status: 'queued' });
    await opened.createRun(run, { events: [ev(run.id, 1)] });
    const { store, statements } = onDriverOnly(opened, "a run's status made Prisma's client");
    assert.equal(await store.getRunStatus(run.id), 'queued');
    assert.equal(await store.getRunStatus('no-such-run'), null);
    assert.deepEqual(statements.filter((t) => /"output"|"input"|"report"/.test(t)), []);
  });

  it("lists and counts runs in plain SQL on the embedded store's line, never making the client (`stagecraft runs`: ~0.17 s of CPU)", async () => {
    const opened = await pglite();
    const run = makeRun();
    await opened.createRun(run, { events: [ev(run.id, 1)] });
    const { store, statements } = onDriverOnly(opened, "the runs list made Prisma's client");
    const page = await store.runIndex.page({ skill: run.skillName }, { limit: 5 });
    assert.deepEqual(page.rows.map((r) => r.id), [run.id]);
    assert.equal(page.rows[0].createdAt, run.createdAt);
    const stats = await store.runIndex.stats({ skill: run.skillName }, { buckets: 4 });
    assert.equal(stats.total, 1);
    assert.equal(stats.byStatus.running, 1);
    assert.ok(statements.length >= 3, 'the page and the aggregate went to the driver');
  });

  it("reads skills (names, versions, a version by name or hash, versions' hashes) in plain SQL on the embedded store's line, never making the client (`stagecraft push`, `pull`, `versions`)", async () => {
    const opened = await pglite();
    const name = `demo_${randomUUID().slice(0, 8)}`;
    const saved = await opened.skills.saveVersion(name, { 'skill.md': '---\nname: demo\n---\nSay hello.\n' }, { mode: 'save', origin: 'push', description: 'demo' });
    const { store, statements } = onDriverOnly(opened, "a skill's read made Prisma's client");
    assert.ok((await store.skills.skillNames()).includes(name));
    assert.deepEqual((await store.skills.listVersions(name))?.map((v) => v.hash), [saved.hash]);
    assert.equal((await store.skills.getVersion(name)).hash, saved.hash);
    assert.equal((await store.skills.getVersion(name, saved.hash.slice(0, 8))).hash, saved.hash);
    await assert.rejects(store.skills.getVersion(`${name}_none`), SkillNotFoundError);
    assert.equal((await store.skills.versionHashes([saved.versionId])).get(saved.versionId), saved.hash);
    assert.equal(await store.skills.listVersions(`${name}_none`), null);
    assert.ok(statements.length >= 9, 'each read went to the driver');
  });

  it("lists runs by any filter and a run's artifacts in plain SQL on the embedded store's line, never making the client (`stagecraft regress`, `export`)", async () => {
    const opened = await pglite();
    const parent = makeRun({ skillName: `demo_${randomUUID().slice(0, 8)}` });
    const child = makeRun({ id: `${parent.id}.1`, skillName: parent.skillName, kind: 'fork', parentRunId: parent.id, createdAt: parent.createdAt + 1 });
    await opened.createRun(parent, { events: [ev(parent.id, 1)] });
    await opened.createRun(child, { events: [ev(child.id, 1)] });
    const kept = [artifact(parent.id, 'b.json', { b: 1 }), artifact(parent.id, 'a.json', { a: [1, 'two'] })];
    await opened.commit(parent.id, { events: [ev(parent.id, 2)], artifacts: kept });
    const { store, statements } = onDriverOnly(opened, "a run listing or an artifact list made Prisma's client");
    const ids = async (filter: Parameters<PrismaStore['listRuns']>[0]) => (await store.listRuns(filter)).map((r) => r.id);
    assert.deepEqual(await ids({ skillName: parent.skillName }), [child.id, parent.id]);
    assert.deepEqual(await ids({ skillName: parent.skillName, kind: ['run'] }), [parent.id]);
    assert.deepEqual(await ids({ skillName: parent.skillName, limit: 1 }), [child.id]);
    assert.deepEqual(await ids({ parentRunId: parent.id }), [child.id]);
    assert.deepEqual(await ids({ idPrefix: `${parent.id}.` }), [child.id]);
    assert.deepEqual(await ids({ skillName: parent.skillName, status: ['completed'] }), []);
    assert.deepEqual(await store.listArtifacts(parent.id), kept);
    assert.deepEqual(await store.listArtifacts(child.id), []);
    assert.ok(statements.length >= 8, 'each read went to the driver');
  });

  it('a client made synchronously (Postgres) is made once too, and a maker that throws is tried again', async () => {
    const real = await (await pglite()).db();
    let made = 0;
    const store = new PrismaStore({
      makeClient: () => {
        if (++made === 1) throw new Error('bad adapter options');
        return real;
      },
      apply: async () => assert.fail('no writes here'),
      claims: new LocalClaims(),
      backend: 'pglite',
      location: 'test',
    });
    await assert.rejects(store.db(), /bad adapter options/);
    const all = await Promise.all([store.db(), store.db(), store.runIndex.page({}, { limit: 1 })]);
    assert.equal(all[0], real);
    assert.equal(all[1], real);
    assert.equal(made, 2);
  });
});
