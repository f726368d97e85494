// The direct write on a real Postgres (wire.ts directCommit): a unit that only appends events
// (and artifacts) is one plain INSERT, and wherever the database refuses it — a recorded seq, a
// gap, an unknown run, a value it does not take — the answer is the commit function's, exactly as
// before: a conflict with what is recorded, or the same error. What it writes reads back as the
// commit function's write does.
import assert from 'node:assert/strict';
import pg from 'pg';
import { after, before, describe, it } from 'node:test';
import { RunNotFoundError } from '../kernel/errors';
import type { CommitUnit } from '../kernel/ports';
import { CommitLanes } from './commit-lanes';
import { SeqGapError, UnsupportedValueError } from './errors';
import { openStore, type OpenedStore } from './open-store';
import { artifact, ev, makeRun } from './testing/fixtures';
import { createTestDatabase, type TestDatabase } from './testing/pg-test-db';
import { directCommit, directStatement, opClaim, opCommit, opCreate, ROWS_MAX_ARTIFACTS, ROWS_MAX_EVENTS } from './wire';

let db: TestDatabase;
let store: OpenedStore;
let lanes: CommitLanes;

before(async () => {
  db = await createTestDatabase();
  store = await openStore({ databaseUrl: db.url }); // migrates
  lanes = new CommitLanes(db.url);
});

after(async () => {
  await lanes?.close();
  await store?.close();
  await db?.drop();
});

async function newRun() {
  const run = makeRun();
  await store.createRun(run, { events: [ev(run.id, 1)] });
  return run;
}

/** the prepared statements the lanes' connection runs, by name, since the last call */
const sent: string[] = [];
async function watchLane(runId: string): Promise<void> {
  const client = await lanes.laneFor(runId).client;
  if ((client as { watched?: boolean }).watched) return;
  const query = client.query.bind(client) as (q: unknown, ...rest: unknown[]) => unknown;
  Object.assign(client, {
    watched: true,
    query: (q: unknown, ...rest: unknown[]) => {
      sent.push((q as { name?: string }).name ?? 'unnamed');
      return query(q, ...rest);
    },
  });
}

/** applies `unit` through the lanes with its direct write; the statements it took come back with the answer */
async function viaLane(runId: string, unit: CommitUnit): Promise<{ result: unknown; statements: string[] }> {
  await watchLane(runId);
  sent.length = 0;
  const result = await lanes.apply(runId, opCommit(runId, unit), undefined, directCommit(runId, unit));
  return { result, statements: [...sent] };
}

describe('direct writes of event-only units', () => {
  it('takes only units with events (and artifacts of distinct paths) that are durable and move nothing else', () => {
    const id = 'run-x';
    assert.ok(directCommit(id, { events: [ev(id, 2)] }));
    assert.ok(directCommit(id, { events: [ev(id, 2), ev(id, 3)], artifacts: [artifact(id, 'a', 1), artifact(id, 'b', 2)] }));
    assert.equal(directCommit(id, { events: [] }), null);
    assert.equal(directCommit(id, { events: [ev(id, 2)], lazy: true }), null, 'a group commit of pure steps: the commit function skips its WAL flush');
    assert.equal(directCommit(id, { events: [ev(id, 2)], run: { status: 'completed' } }), null);
    assert.equal(directCommit(id, { events: [ev(id, 2)], snapshot: 'delete' }), null);
    assert.equal(directCommit(id, { events: [ev(id, 2)], artifacts: [artifact(id, 'a', 1), artifact(id, 'a', 2)] }), null, 'a path written twice');
    assert.equal(directCommit(id, { events: [ev(id, 2, 'bad\ud800')] }), null, 'a lone surrogate would be sent as U+FFFD');
  });

  it('a step commit is one INSERT, and reads back as written', async () => {
    const run = await newRun();
    const data = { z: 1, a: 'ünï "q" \\ ✓', list: [1, null, { b: true }] };
    const { result, statements } = await viaLane(run.id, { events: [ev(run.id, 2, 'step_completed', data)] });
    assert.deepEqual(result, { kind: 'committed' });
    assert.deepEqual(statements, ['sc_rows_1_0']);
    const events = await store.readEvents(run.id);
    assert.deepEqual(events.map((e) => e.seq), [1, 2]);
    assert.equal(JSON.stringify(events[1].data), JSON.stringify(data), 'the JSON text is kept, key order included');
    assert.equal(events[1].at, ev(run.id, 2).at);
  });

  it('events and artifacts in one statement; an artifact written again is replaced', async () => {
    const run = await newRun();
    const first = await viaLane(run.id, { events: [ev(run.id, 2), ev(run.id, 3)], artifacts: [artifact(run.id, 'out.json', { k: 'v1', a: 1 }), artifact(run.id, 'b.txt', 'text')] });
    assert.deepEqual(first, { result: { kind: 'committed' }, statements: ['sc_rows_2_2'] });
    const again = await viaLane(run.id, { events: [ev(run.id, 4)], artifacts: [artifact(run.id, 'out.json', { k: 'v2' }, 99)] });
    assert.deepEqual(again, { result: { kind: 'committed' }, statements: ['sc_rows_1_1'] });
    assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1, 2, 3, 4]);
    // in the order of first writing, as the commit function keeps them
    assert.deepEqual(await store.listArtifacts(run.id), [artifact(run.id, 'out.json', { k: 'v2' }, 99), artifact(run.id, 'b.txt', 'text')]);
  });

  it('a write up to the rows shapes goes as rows, past them as the unnest form, and both read back alike', async () => {
    const run = await newRun();
    const many = Array.from({ length: ROWS_MAX_EVENTS + 1 }, (_, i) => ev(run.id, 2 + i, 'step_completed', { i, z: 'ü' }));
    const files = Array.from({ length: ROWS_MAX_ARTIFACTS + 1 }, (_, i) => artifact(run.id, `f${i}.json`, { i }));
    assert.deepEqual((await viaLane(run.id, { events: many })).statements, ['sc_direct'], 'more events than the rows shapes take');
    const seq = 2 + many.length;
    assert.deepEqual((await viaLane(run.id, { events: [ev(run.id, seq)], artifacts: files })).statements, ['sc_direct'], 'more artifacts than they take');
    const edge = Array.from({ length: ROWS_MAX_EVENTS }, (_, i) => ev(run.id, seq + 1 + i, 'step_completed', { i, at: 'edge "q" \\ ✓ \u0001' }));
    const edgeFiles = files.slice(0, ROWS_MAX_ARTIFACTS).map((f) => artifact(run.id, f.path, { again: f.path }, 7));
    assert.deepEqual((await viaLane(run.id, { events: edge, artifacts: edgeFiles })).statements, [`sc_rows_${ROWS_MAX_EVENTS}_${ROWS_MAX_ARTIFACTS}`], 'the largest rows shape');
    const events = await store.readEvents(run.id);
    assert.deepEqual(events.map((e) => e.seq), Array.from({ length: events.length }, (_, i) => i + 1));
    assert.deepEqual(events.slice(1), [...many, ev(run.id, seq), ...edge], 'types, times and data as written, in seq order');
    // re-written paths keep their place (ord of the first writing), the one written once stays
    assert.deepEqual(await store.listArtifacts(run.id), [...edgeFiles, ...files.slice(ROWS_MAX_ARTIFACTS)]);
  });

  it('a rows write refused (a gap inside it) writes nothing, artifacts included', async () => {
    const run = await newRun();
    await assert.rejects(store.commit(run.id, { events: [ev(run.id, 2), ev(run.id, 4)], artifacts: [artifact(run.id, 'out.json', { k: 1 })] }), SeqGapError);
    await assert.rejects(store.commit(run.id, { events: [ev(run.id, 3)], artifacts: [artifact(run.id, 'out.json', { k: 1 })] }), SeqGapError);
    assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1]);
    assert.deepEqual(await store.listArtifacts(run.id), []);
  });

  it('a recorded seq: nothing written, and the answer is the conflict with what is recorded', async () => {
    const run = await newRun();
    await store.commit(run.id, { events: [ev(run.id, 2, 'phase_started', { mine: true })] });
    const { result, statements } = await viaLane(run.id, { events: [ev(run.id, 2, 'phase_started', { theirs: true })], artifacts: [artifact(run.id, 'x', 1)] });
    assert.deepEqual(statements, ['sc_rows_1_1', 'sc_apply'], 'refused, then answered by the commit function');
    assert.deepEqual(result, { kind: 'conflict', recorded: [ev(run.id, 2, 'phase_started', { mine: true })] });
    assert.deepEqual(await store.listArtifacts(run.id), [], 'the artifact of the refused unit is not written');
    // and through the store's own commit
    assert.deepEqual(await store.commit(run.id, { events: [ev(run.id, 2, 'phase_started', { theirs: true })] }), {
      kind: 'conflict',
      recorded: [ev(run.id, 2, 'phase_started', { mine: true })],
    });
  });

  it("a direct write's op is built only when the database refuses it, and then answers as before", async () => {
    const run = await newRun();
    await store.commit(run.id, { events: [ev(run.id, 2, 'phase_started', { mine: true })] });
    let built = 0;
    const lazyOp = (unit: CommitUnit) => () => {
      built++;
      return opCommit(run.id, unit);
    };
    const next: CommitUnit = { events: [ev(run.id, 3)] };
    assert.deepEqual(await lanes.apply(run.id, lazyOp(next), undefined, directCommit(run.id, next)), { kind: 'committed' });
    assert.equal(built, 0, 'written directly: no op text');
    const taken: CommitUnit = { events: [ev(run.id, 2, 'phase_started', { theirs: true })] };
    assert.deepEqual(await lanes.apply(run.id, lazyOp(taken), undefined, directCommit(run.id, taken)), {
      kind: 'conflict',
      recorded: [ev(run.id, 2, 'phase_started', { mine: true })],
    });
    assert.equal(built, 1, 'refused: the commit function answered with the op built then');
    // a value JSON has no form for is the value's failure, as it was when the op was built first
    await assert.rejects(store.commit(run.id, { events: [ev(run.id, 4, 'x', { n: 1n } as never)] }), UnsupportedValueError);
    assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1, 2, 3]);
  });

  it('a gap and an unknown run fail as they always did, and write nothing', async () => {
    const run = await newRun();
    await assert.rejects(store.commit(run.id, { events: [ev(run.id, 5)] }), SeqGapError);
    await assert.rejects(store.commit(run.id, { events: [ev(run.id, 2), ev(run.id, 4)] }), SeqGapError);
    await assert.rejects(store.commit('run-nowhere', { events: [ev('run-nowhere', 2)] }), RunNotFoundError);
    assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1]);
    // a value the table refuses (event data must be an object) fails whole
    await assert.rejects(store.commit(run.id, { events: [ev(run.id, 2, 'x', [1] as never)] }));
    assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1]);
    // the log goes on from where it is
    assert.deepEqual(await store.commit(run.id, { events: [ev(run.id, 2)] }), { kind: 'committed' });
  });

  it('direct writes of several runs and the other operations of their batch share one statement, each answered in order', async () => {
    const runs = [await newRun(), await newRun(), await newRun()];
    const created = makeRun();
    await watchLane(runs[0].id);
    sent.length = 0;
    const direct = (r: { id: string }, unit: CommitUnit) => lanes.apply(r.id, opCommit(r.id, unit), undefined, directCommit(r.id, unit));
    const results = await Promise.all([
      direct(runs[0], { events: [ev(runs[0].id, 2)] }),
      lanes.apply(created.id, opCreate(created, { events: [ev(created.id, 1)] })),
      direct(runs[1], { events: [ev(runs[1].id, 2), ev(runs[1].id, 3)], artifacts: [artifact(runs[1].id, 'a', 1)] }),
      lanes.apply(runs[2].id, opCommit(runs[2].id, { events: [ev(runs[2].id, 2)], lazy: true })),
    ]);
    assert.deepEqual(sent, ['sc_rows_3_1_apply'], 'as rows: three events and an artifact, and the other operations');
    assert.deepEqual(results, [{ kind: 'committed' }, { kind: 'committed' }, { kind: 'committed' }, { kind: 'committed' }]);
    assert.deepEqual((await store.readEvents(runs[1].id)).map((e) => e.seq), [1, 2, 3]);
    assert.deepEqual((await store.readEvents(runs[2].id)).map((e) => e.seq), [1, 2]);
    assert.equal((await store.getRun(created.id))?.id, created.id);
  });

  it('several runs\' direct writes as rows read back exactly as written, each run\'s in its order', async () => {
    const [a, b] = [await newRun(), await newRun()];
    await watchLane(a.id);
    sent.length = 0;
    const data = (n: number) => ({ z: n, a: 'ünï "q" \\ ✓ \u0001', list: [1, null, { b: true }] });
    const units: [string, CommitUnit][] = [
      [a.id, { events: [ev(a.id, 2, 'step_completed', data(1)), ev(a.id, 3, 'step_completed', data(2))], artifacts: [artifact(a.id, 'out.json', { k: 'a"1' }, 3)] }],
      [b.id, { events: [ev(b.id, 2, 'step_completed', data(3)), ev(b.id, 3, 'tool_called', data(4))], artifacts: [artifact(b.id, 'out.json', 'b\\2', 4)] }],
    ];
    const results = await Promise.all(units.map(([id, unit]) => lanes.apply(id, opCommit(id, unit), undefined, directCommit(id, unit))));
    assert.deepEqual(sent, ['sc_rows_4_2']);
    assert.deepEqual(results, [{ kind: 'committed' }, { kind: 'committed' }]);
    for (const [id, unit] of units) {
      const events = await store.readEvents(id);
      assert.deepEqual(events.slice(1), unit.events);
      assert.equal(JSON.stringify(events.slice(1).map((e) => e.data)), JSON.stringify(unit.events.map((e) => e.data)), 'the JSON text is kept, key order included');
      assert.deepEqual(await store.listArtifacts(id), unit.artifacts);
    }
  });

  it('one refused write in a shared statement: the batch is answered by the commit function, the others committed', async () => {
    const [a, b] = [await newRun(), await newRun()];
    await store.commit(b.id, { events: [ev(b.id, 2, 'phase_started', { first: true })] });
    await watchLane(a.id);
    sent.length = 0;
    const results = await Promise.all([
      lanes.apply(a.id, opCommit(a.id, { events: [ev(a.id, 2)] }), undefined, directCommit(a.id, { events: [ev(a.id, 2)] })),
      lanes.apply(b.id, opCommit(b.id, { events: [ev(b.id, 2)] }), undefined, directCommit(b.id, { events: [ev(b.id, 2)] })),
    ]);
    assert.deepEqual(sent, ['sc_rows_2_0', 'sc_apply']);
    assert.deepEqual(results, [{ kind: 'committed' }, { kind: 'conflict', recorded: [ev(b.id, 2, 'phase_started', { first: true })] }]);
    assert.deepEqual((await store.readEvents(a.id)).map((e) => e.seq), [1, 2]);
  });

  it('the batch function told the statement is durable keeps the WAL flush, whatever its own operations are', async () => {
    const run = await newRun();
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const setting = async (sql: string, ops: string[]) => {
        await admin.query('BEGIN');
        try {
          await admin.query(sql, [`[${ops.join(',')}]`]);
          return (await admin.query('SHOW synchronous_commit')).rows[0].synchronous_commit;
        } finally {
          await admin.query('ROLLBACK');
        }
      };
      const lazy = opCommit(run.id, { events: [ev(run.id, 2)], lazy: true });
      assert.equal(await setting('SELECT stagecraft_apply($1::jsonb)', [lazy]), 'off');
      assert.equal(await setting('SELECT stagecraft_apply($1::jsonb, true)', [lazy]), 'on');
      assert.equal(await setting('SELECT stagecraft_apply($1::jsonb, true)', [opClaim('42')]), 'on');
      assert.equal(await setting('SELECT stagecraft_apply($1::jsonb, false)', [lazy]), 'off');
      // a direct write beside operations that are all lazy (or only claims) keeps the flush
      const statement = async (ops: string[]) => {
        await admin.query('BEGIN');
        try {
          const st = directStatement([directCommit(run.id, { events: [ev(run.id, 2)] })!], ops);
          await admin.query({ text: st.text, values: st.values });
          return (await admin.query('SHOW synchronous_commit')).rows[0].synchronous_commit;
        } finally {
          await admin.query('ROLLBACK');
        }
      };
      const other = await newRun();
      assert.equal(await statement([opCommit(other.id, { events: [ev(other.id, 2)], lazy: true })]), 'on');
      assert.equal(await statement([opClaim('42')]), 'on');
    } finally {
      await admin.end();
    }
  });
});
