// The batched write path on a real Postgres: what runs write at the same moment
// shares one statement; one failing operation does not fail the others; the
// claims of a failed batch are not leaked; a lazy batch skips the WAL flush and
// anything durable in it restores the flush; the commit that ends a run lets go
// of its claim.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { CommitLanes } from './commit-lanes';
import { claimKey } from './claims';
import { openStore, type OpenedStore } from './open-store';
import { ev, makeRun } from './testing/fixtures';
import { createTestDatabase, type TestDatabase } from './testing/pg-test-db';
import { directCommit, directCreate, directStatement, opClaim, opCommit, opCreate, opUnlock, type DirectWrite } from './wire';
import type { CommitUnit } from '../kernel/ports';

let db: TestDatabase;
let store: OpenedStore;
let admin: pg.Client;

before(async () => {
  db = await createTestDatabase();
  store = await openStore({ databaseUrl: db.url }); // migrates
  admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
});

after(async () => {
  await admin?.end();
  await store?.close();
  await db?.drop();
});

/** sessions holding the advisory lock of `runId`'s claim (a session that took it twice is one row) */
async function claimHolders(runId: string): Promise<number> {
  const key = BigInt(claimKey(runId));
  const hi = Number((key >> 32n) & 0xffffffffn);
  const lo = Number(key & 0xffffffffn);
  const { rows } = await admin.query(
    `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid::bigint = $1 AND objid::bigint = $2`,
    [hi, lo],
  );
  return rows[0].n;
}

async function newRun(lanes: CommitLanes) {
  const run = makeRun();
  await lanes.apply(run.id, opCreate(run, { events: [ev(run.id, 1)] }));
  return run;
}

describe('commit lanes on Postgres', () => {
  it("a write with moves is encoded as it is queued, not when its statement is built, and that statement is the same", async () => {
    const lanes = new CommitLanes(db.url);
    try {
      const run = makeRun();
      const create = directCreate(run, { events: [ev(run.id, 1)], snapshot: { runId: run.id, currentPhase: 'main', seq: 1, data: { a: 'x"y' } } })!;
      const end = directCommit(run.id, { events: [ev(run.id, 2, 'run_completed', { output: { q: '"' } })], run: { status: 'completed', output: { q: '"' }, report: { r: 1 } }, snapshot: 'delete' })!;
      const step = directCommit(run.id, { events: [ev(run.id, 3)] })!;
      // what each statement would be, encoded only when built (as for a write that never went through a lane)
      const copy = (w: DirectWrite): DirectWrite => ({ ...w, moves: w.moves && { ...w.moves } });
      const expected = [directStatement([copy(create)], []), directStatement([copy(end), copy(step)], ['{"op":"claim","key":"1"}'])];
      const created = lanes.apply(run.id, opCreate(run, { events: [ev(run.id, 1)] }), undefined, create);
      assert.ok(create.json, 'its rows were encoded when it was queued');
      await created;
      const other = makeRun();
      await lanes.apply(other.id, opCreate(other, { events: [ev(other.id, 1)] }));
      const alone = directCommit(other.id, { events: [ev(other.id, 2)] })!;
      await lanes.apply(other.id, () => opCommit(other.id, { events: [ev(other.id, 2)] }), undefined, alone);
      assert.equal(alone.json, undefined, 'a write without moves queued on an idle lane (the rows form, alone) is not encoded ahead');
      assert.deepEqual(directStatement([create], []), expected[0]);
      lanes.apply(run.id, () => opCommit(run.id, { events: [ev(run.id, 2)] }), undefined, end);
      assert.ok(end.json);
      // queued while the end's statement is on its way: it will share the next one, in the json form whenever that holds moves
      lanes.apply(run.id, () => opCommit(run.id, { events: [ev(run.id, 3)] }), undefined, step);
      assert.ok(step.json, 'a write queued behind a statement in flight is encoded as it is queued');
      assert.deepEqual(directStatement([end, step], ['{"op":"claim","key":"1"}']), expected[1]);
    } finally {
      await lanes.close();
    }
  });

  it('commits issued in the same tick by different runs travel in one statement', async () => {
    const lanes = new CommitLanes(db.url);
    try {
      const runs = [];
      for (let i = 0; i < 8; i++) runs.push(await newRun(lanes));
      const lane = lanes.laneFor(runs[0].id);
      const before = lane.statements;
      const results = await Promise.all(runs.map((r) => lanes.apply(r.id, opCommit(r.id, { events: [ev(r.id, 2)] }))));
      assert.deepEqual(results, runs.map(() => ({ kind: 'committed' })));
      assert.equal(lane.statements - before, 1, 'eight commits, one statement');
      for (const r of runs) assert.deepEqual((await store.readEvents(r.id)).map((e) => e.seq), [1, 2]);
    } finally {
      await lanes.close();
    }
  });

  it('once runs commit side by side, a commit waits out the turn of the event loop: commits from replies handled in the same turn share its statement; a lone run\'s does not wait', async () => {
    const lanes = new CommitLanes(db.url);
    try {
      const [a, b, c, d] = [await newRun(lanes), await newRun(lanes), await newRun(lanes), await newRun(lanes)];
      const lane = lanes.laneFor(a.id);
      const commit = (r: { id: string }, seq: number) => lanes.apply(r.id, opCommit(r.id, { events: [ev(r.id, seq)] }));
      /** `first` now, `second` from a callback queued before it (as a second step's reply read in the same poll): statements sent */
      const sideBySide = async (first: { id: string }, second: { id: string }, seq: number) => {
        const before = lane.statements;
        let late: Promise<unknown> | null = null;
        setImmediate(() => (late = commit(second, seq)));
        await commit(first, seq);
        await late;
        return lane.statements - before;
      };
      // the lane's last statement carried one operation (newRun, one by one): the first commit goes at once, the second behind it
      assert.equal(await sideBySide(a, b, 2), 2);
      // two commits in one statement: runs are committing side by side
      await Promise.all([commit(c, 2), commit(d, 2)]);
      assert.equal(await sideBySide(a, b, 3), 1, 'the second commit joins the first one\'s statement');
      for (const r of [a, b]) assert.deepEqual((await store.readEvents(r.id)).map((e) => e.seq), [1, 2, 3]);
    } finally {
      await lanes.close();
    }
  });

  it("a lone run's step commit is on the wire as it is applied, answered from pg's callback; one refused goes again through the commit function; what queues behind it follows", async () => {
    const lanes = new CommitLanes(db.url);
    try {
      const other = await newRun(lanes);
      const run = await newRun(lanes);
      const lane = lanes.laneFor(run.id);
      const step = (seq: number, r = run) => {
        const unit: CommitUnit = { events: [ev(r.id, seq)] };
        return lanes.apply(r.id, () => opCommit(r.id, unit), undefined, directCommit(r.id, unit));
      };
      // another run's write than the last statement's waits a microtask: what else this tick issues may join it
      let before = lane.statements;
      const joined = [step(2, other), step(2)];
      assert.equal(lane.statements, before);
      await Promise.all(joined);
      assert.equal(lane.statements, before + 1, 'both in one statement');
      await step(3, other);
      before = lane.statements;
      const first = step(4, other);
      assert.equal(lane.statements, before + 1, 'its statement was sent before apply returned (no microtask first)');
      // queued while it travels: sent after it, in the next statement
      const second = step(5, other);
      assert.equal(lane.statements, before + 1);
      assert.deepEqual(await first, { kind: 'committed' });
      assert.deepEqual(await second, { kind: 'committed' });
      assert.equal(lane.statements, before + 2);
      // a recorded seq: refused as a direct write, answered by the commit function with what is recorded
      const again = (await step(5, other)) as { kind: string; recorded: { seq: number }[] };
      assert.equal(again.kind, 'conflict');
      assert.deepEqual(again.recorded.map((e) => e.seq), [5]);
      assert.deepEqual(await step(6, other), { kind: 'committed' });
      assert.deepEqual((await store.readEvents(other.id)).map((e) => e.seq), [1, 2, 3, 4, 5, 6]);
      assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1, 2]);
    } finally {
      await lanes.close();
    }
  });

  it('counts each prepared statement sent once, however often it is sent (the shapes its connection planned)', async () => {
    const lanes = new CommitLanes(db.url);
    try {
      const runs = [await newRun(lanes), await newRun(lanes)];
      assert.equal(lanes.stats().shapes, 1, 'two creations through the commit function: one statement');
      for (const r of runs) await lanes.apply(r.id, opCommit(r.id, { events: [ev(r.id, 2)] }), undefined, directCommit(r.id, { events: [ev(r.id, 2)] }));
      assert.deepEqual([...lanes.laneFor(runs[0].id).shapes], ['sc_apply', 'sc_rows_1_0']);
      assert.equal(lanes.stats().shapes, 2);
    } finally {
      await lanes.close();
    }
  });

  it('one failing operation in a batch fails alone: the others are applied and answered', async () => {
    const lanes = new CommitLanes(db.url);
    try {
      const [a, b, c] = [await newRun(lanes), await newRun(lanes), await newRun(lanes)];
      const lane = lanes.laneFor(a.id);
      const before = lane.statements;
      const settled = await Promise.allSettled([
        lanes.apply(a.id, opCommit(a.id, { events: [ev(a.id, 2)] })),
        lanes.apply(b.id, opCommit(b.id, { events: [ev(b.id, 5)] })), // a gap: SC003
        lanes.apply(c.id, opCommit(c.id, { events: [ev(c.id, 2)] })),
      ]);
      assert.deepEqual(settled[0], { status: 'fulfilled', value: { kind: 'committed' } });
      assert.equal(settled[1].status, 'rejected');
      assert.equal((settled[1] as PromiseRejectedResult).reason.code, 'SC003');
      assert.deepEqual(settled[2], { status: 'fulfilled', value: { kind: 'committed' } });
      assert.equal(lane.statements - before, 4, 'the batch of three, then each operation again on its own');
      assert.deepEqual((await store.readEvents(a.id)).map((e) => e.seq), [1, 2]);
      assert.deepEqual((await store.readEvents(b.id)).map((e) => e.seq), [1]);
      assert.deepEqual((await store.readEvents(c.id)).map((e) => e.seq), [1, 2]);
    } finally {
      await lanes.close();
    }
  });

  it('a claim in a failed batch is taken exactly once when the batch is retried one by one', async () => {
    const lanes = new CommitLanes(db.url);
    try {
      const a = await newRun(lanes);
      const claimed = makeRun();
      const key = claimKey(claimed.id);
      const [claim, bad] = await Promise.allSettled([
        lanes.apply(claimed.id, opClaim(key), key),
        lanes.apply(a.id, opCommit(a.id, { events: [ev(a.id, 9)] })), // fails the batch
      ]);
      assert.deepEqual(claim, { status: 'fulfilled', value: { claimed: true } });
      assert.equal(bad.status, 'rejected');
      assert.equal(await claimHolders(claimed.id), 1);
      // one unlock frees it: the retried claim did not stack on a leaked one
      await lanes.apply(claimed.id, opUnlock(key));
      assert.equal(await claimHolders(claimed.id), 0);
    } finally {
      await lanes.close();
    }
  });

  it('a batch that fails releases nothing: the unlock a commit carries runs only once every operation is applied', async () => {
    const run = makeRun();
    await store.createRun(run, { events: [ev(run.id, 1)] });
    const key = claimKey(run.id);
    const holders = async () =>
      (await admin.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()`)).rows[0].n;
    await admin.query('SELECT pg_advisory_lock($1::bigint)', [key]);
    const ending = opCommit(run.id, { events: [ev(run.id, 2)], run: { status: 'completed' } }, key);
    await assert.rejects(admin.query('SELECT stagecraft_apply($1::jsonb)', [`[${ending},${opCommit(run.id, { events: [ev(run.id, 9)] })}]`]), {
      code: 'SC003',
    });
    assert.equal(await holders(), 1, 'the claim outlives the failed batch');
    await admin.query('SELECT stagecraft_apply($1::jsonb)', [`[${ending}]`]);
    assert.equal(await holders(), 0, 'and ends with the commit that lands');
    assert.equal((await store.getRun(run.id))?.status, 'completed');
  });

  it('a batch of lazy writes commits without waiting for the WAL flush; one durable write restores it', async () => {
    const a = makeRun();
    const b = makeRun();
    await store.createRun(a, { events: [ev(a.id, 1)] });
    await store.createRun(b, { events: [ev(b.id, 1)] });
    const setting = async (ops: string[]) => {
      await admin.query('BEGIN');
      try {
        await admin.query('SELECT stagecraft_apply($1::jsonb)', [`[${ops.join(',')}]`]);
        return (await admin.query('SHOW synchronous_commit')).rows[0].synchronous_commit;
      } finally {
        await admin.query('ROLLBACK');
      }
    };
    assert.equal(await setting([opCommit(a.id, { events: [ev(a.id, 2)], lazy: true })]), 'off');
    assert.equal(await setting([opCommit(a.id, { events: [ev(a.id, 2)], lazy: true }), opCommit(b.id, { events: [ev(b.id, 2)] })]), 'on');
    assert.equal(await setting([opCommit(a.id, { events: [ev(a.id, 2)] })]), 'on');
    const c = makeRun();
    assert.equal(await setting([opCreate(c, { events: [ev(c.id, 1)], lazy: true })]), 'on', 'creating a run is always durable');
  });
});

describe("a lane's session", () => {
  it('plans each statement once, generically: none is planned again for its first executions', async () => {
    const lanes = new CommitLanes(db.url);
    try {
      // each run: its creation (through stagecraft_apply), its claim, a commit moving its snapshot and its end (direct writes)
      const runs = [makeRun(), makeRun(), makeRun()];
      for (const run of runs) {
        await lanes.apply(run.id, opCreate(run, { events: [ev(run.id, 1)] }));
        assert.deepEqual(await lanes.apply(run.id, opClaim(claimKey(run.id)), claimKey(run.id)), { claimed: true });
        const moved: CommitUnit = { events: [ev(run.id, 2)], snapshot: { runId: run.id, currentPhase: 'p', seq: 2, data: {} } };
        assert.deepEqual(await lanes.apply(run.id, () => opCommit(run.id, moved), undefined, directCommit(run.id, moved)), { kind: 'committed' });
        const ended: CommitUnit = { events: [ev(run.id, 3)], snapshot: 'delete', run: { status: 'completed', updatedAt: Date.now() } };
        assert.deepEqual(await lanes.apply(run.id, () => opCommit(run.id, ended), undefined, directCommit(run.id, ended)), { kind: 'committed' });
        await lanes.apply(run.id, opUnlock(claimKey(run.id)));
      }
      const client = await lanes.laneFor(runs[0].id).client;
      const { rows } = await client.query<{ name: string; generic_plans: string; custom_plans: string }>(
        "SELECT name, generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE name LIKE 'sc_%' ORDER BY name",
      );
      assert.ok(rows.length >= 3, JSON.stringify(rows));
      // generic_plans counts the executions that used the kept plan; custom_plans those planned for their own values
      for (const r of rows) assert.deepEqual({ name: r.name, custom: r.custom_plans, generic: Number(r.generic_plans) > 0 }, { name: r.name, custom: 0, generic: true });
    } finally {
      await lanes.close();
    }
  });
});

describe('claims ride on the commit lanes', () => {
  it('the commit that ends a run lets go of its claim; one that does not, keeps it', async () => {
    const other = await openStore({ databaseUrl: db.url });
    try {
      const run = makeRun();
      await store.createRun(run, { events: [ev(run.id, 1)] });
      const held = await store.claimRun(run.id);
      assert.ok(held);
      await store.commit(run.id, { events: [ev(run.id, 2)], run: { status: 'running' } });
      assert.equal(await other.claimRun(run.id), null, 'still held after a commit that does not end the run');
      await store.commit(run.id, { events: [ev(run.id, 3)], run: { status: 'completed' } });
      assert.equal(await claimHolders(run.id), 0, 'released by the completing commit itself');
      const taken = await other.claimRun(run.id);
      assert.ok(taken);
      await held.release(); // a no-op now: it must not free the other store's claim
      assert.equal(await claimHolders(run.id), 1);
      assert.equal(await store.claimRun(run.id), null);
      await taken.release();
    } finally {
      await other.close();
    }
  });
});

describe('a lost lane', () => {
  it('fails what is sent on it, and the next write opens a new connection', async () => {
    const lanes = new CommitLanes(db.url);
    try {
      const run = await newRun(lanes);
      const lost = lanes.laneFor(run.id);
      const pid = (await (await lost.client).query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      for (let i = 0; i < 200 && !lost.lost; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(lost.lost, true, 'the server closing the connection marks the lane lost');
      await assert.rejects(lost.apply(opCommit(run.id, { events: [ev(run.id, 2)] })), 'a write on the lost lane fails');
      assert.notEqual(lanes.laneFor(run.id), lost);
      assert.deepEqual(await lanes.apply(run.id, opCommit(run.id, { events: [ev(run.id, 2)] })), { kind: 'committed' });
      assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1, 2]);
    } finally {
      await lanes.close();
    }
  });
});
