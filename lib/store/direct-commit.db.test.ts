// The direct write on a real Postgres (wire.ts directCommit): a unit that only appends events
// (and artifacts) is one plain INSERT, one that also moves the snapshot, the run row or the claim
// one plain statement, and wherever the database refuses it — a recorded seq, a
// gap, an unknown run, a value it does not take — the answer is the commit function's, exactly as
// before: a conflict with what is recorded, or the same error. What it writes reads back as the
// commit function's write does.
import assert from 'node:assert/strict';
import pg from 'pg';
import { after, before, describe, it } from 'node:test';
import { RunNotFoundError } from '../kernel/errors';
import type { CommitUnit, RunRecord } from '../kernel/ports';
import { CommitLanes } from './commit-lanes';
import { RunExistsError, SeqGapError, UnsupportedValueError } from './errors';
import { openStore, type OpenedStore } from './open-store';
import { artifact, ev, makeRun, T0, trace } from './testing/fixtures';
import { claimKey } from './claims';
import { createTestDatabase, type TestDatabase } from './testing/pg-test-db';
import { type DirectWrite, directCommit, directCreate, directStatement, msToTs, opClaim, opCommit, opCreate, opUnlock, ROWS_MAX_ARTIFACTS, ROWS_MAX_EVENTS } from './wire';

let db: TestDatabase;
let store: OpenedStore;
let lanes: CommitLanes;
/** a connection of its own, to read rows and locks as the database holds them */
let adminClient: pg.Client | null = null;
const admin = () => adminClient!;

before(async () => {
  db = await createTestDatabase();
  store = await openStore({ databaseUrl: db.url }); // migrates
  lanes = new CommitLanes(db.url);
  adminClient = new pg.Client({ connectionString: db.url });
  await adminClient.connect();
});

after(async () => {
  await adminClient?.end();
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
  it('takes only durable units with events, no traces and artifacts of distinct paths', () => {
    const id = 'run-x';
    assert.equal(directCommit(id, { events: [ev(id, 2)] })?.moves, undefined, 'events alone: the rows forms');
    assert.ok(directCommit(id, { events: [ev(id, 2), ev(id, 3)], artifacts: [artifact(id, 'a', 1), artifact(id, 'b', 2)] }));
    assert.deepEqual(directCommit(id, { events: [ev(id, 2)], run: { status: 'completed' } })?.moves, {
      snapshot: null,
      deleteSnapshot: null,
      run: [id, 'completed', null, null, null, null],
      unlock: null,
    });
    assert.deepEqual(directCommit(id, { events: [ev(id, 2)], snapshot: 'delete' })?.moves?.deleteSnapshot, id);
    assert.deepEqual(directCommit(id, { events: [ev(id, 2)], snapshot: { runId: id, currentPhase: 'p', seq: 2, data: { b: 1, a: 2 } } })?.moves?.snapshot, [id, 'p', 2, '{"b":1,"a":2}']);
    assert.equal(directCommit(id, { events: [] }), null);
    assert.equal(directCommit(id, { events: [], snapshot: 'delete', run: { status: 'completed' } }), null, 'no event: nothing would show the run is there');
    assert.equal(directCommit(id, { events: [ev(id, 2)], lazy: true }), null, 'a group commit of pure steps: the commit function skips its WAL flush');
    assert.equal(directCommit(id, { events: [ev(id, 2)], traces: [trace(id, 2)] }), null, 'traces go through the commit function');
    assert.equal(directCommit(id, { events: [ev(id, 2)], artifacts: [artifact(id, 'a', 1), artifact(id, 'a', 2)] }), null, 'a path written twice');
    assert.equal(directCommit(id, { events: [ev(id, 2, 'bad\ud800')] }), null, 'a lone surrogate would be sent as U+FFFD');
    assert.equal(directCommit(id, { events: [ev(id, 2)], snapshot: { runId: id, currentPhase: 'bad\ud800', seq: 2, data: {} } }), null);
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

  it('a write up to the rows shapes goes as rows, past them as the json form, and both read back alike', async () => {
    const run = await newRun();
    const many = Array.from({ length: ROWS_MAX_EVENTS + 1 }, (_, i) => ev(run.id, 2 + i, 'step_completed', { i, z: 'ü' }));
    const files = Array.from({ length: ROWS_MAX_ARTIFACTS + 1 }, (_, i) => artifact(run.id, `f${i}.json`, { i }));
    assert.deepEqual((await viaLane(run.id, { events: many })).statements, ['sc_json_e'], 'more events than the rows shapes take');
    const seq = 2 + many.length;
    assert.deepEqual((await viaLane(run.id, { events: [ev(run.id, seq)], artifacts: files })).statements, ['sc_json_ea'], 'more artifacts than they take');
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

/** the row of `runId` as the database holds it, its JSON as text (generated columns included), its id left out */
async function runRow(runId: string): Promise<Record<string, unknown>> {
  const { rows } = await admin().query(
    `SELECT status, output::text, error::text, report::text, updated_at, created_at, outcome, error_message, failed_at, needs_attention, duration_ms
       FROM runs WHERE id = $1`,
    [runId],
  );
  return rows[0];
}
async function snapshotRow(runId: string): Promise<Record<string, unknown> | null> {
  const { rows } = await admin().query('SELECT current_phase, seq, data::text FROM snapshots WHERE run_id = $1', [runId]);
  return rows[0] ?? null;
}
async function claimHolders(runId: string): Promise<number> {
  const key = BigInt(claimKey(runId));
  const { rows } = await admin().query(
    `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid::bigint = $1 AND objid::bigint = $2`,
    [Number((key >> 32n) & 0xffffffffn), Number(key & 0xffffffffn)],
  );
  return rows[0].n;
}

describe('direct writes that move the snapshot, the run row and the claim', () => {
  it("a run's first commit, its moves and its end read back exactly as the commit function writes them", async () => {
    // two runs given the same units: `direct` through the direct write, `twin` through stagecraft_apply
    const over = { output: { earlier: 1 }, report: { kept: 'until the end' } };
    const direct = makeRun(over);
    const twin = makeRun({ ...over, skillName: direct.skillName });
    for (const r of [direct, twin]) await store.createRun(r, { events: [ev(r.id, 1)] });
    const data = { z: 1, a: 'ünï "q" \\ ✓ \u0001', list: [1, null, { b: true }] };
    const units = (id: string): CommitUnit[] => [
      // the first commit after the creation: events, the snapshot moved, the finish artifact
      { events: [ev(id, 2), ev(id, 3, 'step_completed', data)], snapshot: { runId: id, currentPhase: '__post__', seq: 3, data: { b: 2, a: [data] } }, artifacts: [artifact(id, 'finish.json', data, 7)] },
      // a partial patch: only the keys given change
      { events: [ev(id, 4)], snapshot: { runId: id, currentPhase: 'next', seq: 4, data: { z: 0 } }, run: { status: 'running', updatedAt: T0 + 4 } },
      { events: [ev(id, 5)], run: { output: { k: [1, 'ü'] }, error: null } },
      // the end: the run row, the snapshot deleted
      {
        events: [ev(id, 6, 'step_completed', data), ev(id, 7, 'run_completed', { output: data })],
        snapshot: 'delete',
        run: { status: 'completed', updatedAt: T0 + 7, output: data, error: null, report: { outcome: 'succeeded', failed_step: null, z: 1 } },
      },
    ];
    const [mine, theirs] = [units(direct.id), units(twin.id)];
    for (let i = 0; i < mine.length; i++) {
      const { result, statements } = await viaLane(direct.id, mine[i]);
      // a statement with a part for each kind of rows the unit has, and none for the others
      const shape = ['sc_json_eas', 'sc_json_esp', 'sc_json_ep', 'sc_json_edp'][i];
      assert.deepEqual({ result, statements }, { result: { kind: 'committed' }, statements: [shape] }, `unit ${i}`);
      assert.deepEqual(await lanes.apply(twin.id, opCommit(twin.id, theirs[i])), { kind: 'committed' });
      assert.deepEqual(await runRow(direct.id), await runRow(twin.id), `the run row after unit ${i}`);
      assert.deepEqual(await snapshotRow(direct.id), await snapshotRow(twin.id), `the snapshot after unit ${i}`);
    }
    assert.equal((await runRow(direct.id)).status, 'completed');
    assert.equal((await runRow(direct.id)).outcome, 'succeeded');
    assert.equal(await snapshotRow(direct.id), null);
    const same = <T>(rows: T[], id: string) => JSON.stringify(rows).split(id).join('<run>');
    assert.equal(same(await store.readEvents(direct.id), direct.id), same(await store.readEvents(twin.id), twin.id));
    assert.equal(same(await store.listArtifacts(direct.id), direct.id), same(await store.listArtifacts(twin.id), twin.id));
  });

  it('the ends and patches of several runs in one statement: one part each for their snapshots and run rows, read back as the commit function writes them', async () => {
    const data = { z: 1, a: 'ünï "q" \\ ✓ \u0001' };
    // what four runs commit at once: an end, a failed end, a partial patch (the snapshot kept), a snapshot dropped alone
    const units = (id: string, seq: number): CommitUnit[][] => [
      [{ events: [ev(id, seq, 'run_completed', { output: data })], snapshot: 'delete', run: { status: 'completed', updatedAt: T0 + seq, output: data, report: { outcome: 'succeeded', z: 1 } } }],
      [{ events: [ev(id, seq, 'run_failed')], snapshot: 'delete', run: { status: 'failed', updatedAt: T0 + seq, error: { message: 'no' }, report: { outcome: 'failed', failed_step: 'x' } } }],
      [{ events: [ev(id, seq)], run: { output: { k: [1, 'ü'] }, error: null } }],
      [{ events: [ev(id, seq)], snapshot: 'delete' }],
    ].map((u) => u as CommitUnit[]);
    const made = async () => {
      const run = makeRun({ output: { earlier: 1 }, report: { kept: 1 } });
      await store.createRun(run, { events: [ev(run.id, 1)], snapshot: { runId: run.id, currentPhase: 'p', seq: 1, data: { i: 1 } } });
      return run;
    };
    const direct = [await made(), await made(), await made(), await made()];
    const twins = [await made(), await made(), await made(), await made()];
    // the two that end hold their claims, let go of in the same statement
    const keys = direct.slice(0, 2).map((r) => claimKey(r.id));
    for (const [i, key] of keys.entries()) assert.deepEqual(await lanes.apply(direct[i].id, opClaim(key), key), { claimed: true });
    await watchLane(direct[0].id);
    sent.length = 0;
    const results = await Promise.all(
      direct.map((r, i) => {
        const unit = units(r.id, 2)[i][0];
        const w = directCommit(r.id, unit)!;
        const unlock = keys[i] ?? null;
        return lanes.apply(r.id, opCommit(r.id, unit, unlock), undefined, unlock ? { ...w, moves: { ...w.moves!, unlock } } : w);
      }),
    );
    assert.deepEqual(sent, ['sc_json_edpu'], 'one statement, one part for the deletions and one for the patches');
    assert.deepEqual(results, direct.map(() => ({ kind: 'committed' })));
    for (const [i, t] of twins.entries()) assert.deepEqual(await lanes.apply(t.id, opCommit(t.id, units(t.id, 2)[i][0])), { kind: 'committed' });
    for (let i = 0; i < 4; i++) {
      assert.deepEqual(await runRow(direct[i].id), await runRow(twins[i].id), `the run row of run ${i}`);
      assert.deepEqual(await snapshotRow(direct[i].id), await snapshotRow(twins[i].id), `the snapshot of run ${i}`);
    }
    assert.deepEqual(await Promise.all(direct.map((r) => snapshotRow(r.id).then((row) => row !== null))), [false, false, true, false]);
    assert.deepEqual(await Promise.all(direct.map((r) => claimHolders(r.id))), [0, 0, 0, 0], 'both claims let go of');
  });

  it('several runs\' ends in one statement, one of them refused: each answered alone as before, nothing of the refused one written, every claim let go of', async () => {
    const runs = [await newRun(), await newRun(), await newRun()];
    for (const r of runs) await store.commit(r.id, { events: [ev(r.id, 2, 'phase_started', { mine: true })], snapshot: { runId: r.id, currentPhase: 'p', seq: 2, data: { k: 1 } } });
    const keys = runs.map((r) => claimKey(r.id));
    for (const [i, key] of keys.entries()) assert.deepEqual(await lanes.apply(runs[i].id, opClaim(key), key), { claimed: true });
    const before = [await runRow(runs[1].id), await snapshotRow(runs[1].id)];
    // the second one's seq is recorded already: a conflict
    const end = (id: string, seq: number): CommitUnit => ({ events: [ev(id, seq, 'run_completed', { theirs: true })], snapshot: 'delete', run: { status: 'completed', updatedAt: T0 + 9, output: { id } } });
    await watchLane(runs[0].id);
    sent.length = 0;
    const results = await Promise.all(
      runs.map((r, i) => {
        const unit = end(r.id, i === 1 ? 2 : 3);
        const w = directCommit(r.id, unit)!;
        return lanes.apply(r.id, opCommit(r.id, unit, keys[i]), undefined, { ...w, moves: { ...w.moves!, unlock: keys[i] } });
      }),
    );
    assert.deepEqual(sent, ['sc_json_edpu', 'sc_apply'], 'refused, then sent again through the commit function');
    assert.deepEqual(results, [{ kind: 'committed' }, { kind: 'conflict', recorded: [ev(runs[1].id, 2, 'phase_started', { mine: true })] }, { kind: 'committed' }]);
    assert.deepEqual([await runRow(runs[1].id), await snapshotRow(runs[1].id)], before, 'the refused run as it was');
    for (const i of [0, 2]) {
      assert.equal((await runRow(runs[i].id)).status, 'completed');
      assert.equal(await snapshotRow(runs[i].id), null);
    }
    assert.deepEqual(await Promise.all(runs.map((r) => claimHolders(r.id))), [0, 0, 0]);
  });

  it("a run's end lets go of its claim in its own statement", async () => {
    const run = await newRun();
    assert.ok(await store.claimRun(run.id));
    assert.equal(await claimHolders(run.id), 1);
    await watchLane(run.id);
    sent.length = 0;
    const end: CommitUnit = { events: [ev(run.id, 2, 'run_completed')], snapshot: 'delete', run: { status: 'completed', updatedAt: T0 + 2 } };
    assert.deepEqual(await store.commit(run.id, end), { kind: 'committed' });
    assert.equal(await claimHolders(run.id), 0);
    assert.equal((await runRow(run.id)).status, 'completed');
  });

  it('a refused end (a recorded seq) writes nothing, is answered with the conflict, and lets go of the claim as before', async () => {
    const run = await newRun();
    await store.commit(run.id, { events: [ev(run.id, 2, 'phase_started', { mine: true })], snapshot: { runId: run.id, currentPhase: 'p', seq: 2, data: { k: 1 } } });
    assert.ok(await store.claimRun(run.id));
    const before = [await runRow(run.id), await snapshotRow(run.id)];
    const end: CommitUnit = { events: [ev(run.id, 2, 'run_completed', { theirs: true })], snapshot: 'delete', run: { status: 'completed', updatedAt: T0 + 9, output: { no: 1 } } };
    assert.deepEqual(await store.commit(run.id, end), { kind: 'conflict', recorded: [ev(run.id, 2, 'phase_started', { mine: true })] });
    assert.deepEqual([await runRow(run.id), await snapshotRow(run.id)], before, 'the run row and the snapshot as they were');
    assert.equal(await claimHolders(run.id), 0, 'the commit function lets go of a conflicting end\'s claim too');
  });

  it('a refused move (a gap, a snapshot the table refuses) fails as it always did and writes nothing', async () => {
    const run = await newRun();
    await store.commit(run.id, { events: [ev(run.id, 2)], snapshot: { runId: run.id, currentPhase: 'p', seq: 2, data: { k: 1 } } });
    assert.ok(await store.claimRun(run.id));
    const before = [await runRow(run.id), await snapshotRow(run.id)];
    await assert.rejects(store.commit(run.id, { events: [ev(run.id, 4)], snapshot: 'delete', run: { status: 'failed', updatedAt: T0 + 4 } }), SeqGapError);
    await assert.rejects(store.commit(run.id, { events: [ev(run.id, 3)], snapshot: { runId: run.id, currentPhase: 'p', seq: 3, data: [1] as never } }), /snapshots_data_check/);
    assert.deepEqual([await runRow(run.id), await snapshotRow(run.id)], before);
    assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1, 2]);
    assert.equal(await claimHolders(run.id), 0, 'the failed end lets go of the claim (PrismaStore, as before)');
  });

  it('moves, rows and the batch\'s other operations share one statement, each answered in order', async () => {
    const [a, b] = [await newRun(), await newRun()];
    const created = makeRun();
    await watchLane(a.id);
    sent.length = 0;
    const moved: CommitUnit = { events: [ev(a.id, 2)], snapshot: { runId: a.id, currentPhase: 'p', seq: 2, data: { a: 1 } }, artifacts: [artifact(a.id, 'f', 1)] };
    const step: CommitUnit = { events: [ev(b.id, 2)] };
    const key = claimKey(created.id);
    const results = await Promise.all([
      lanes.apply(a.id, opCommit(a.id, moved), undefined, directCommit(a.id, moved)),
      lanes.apply(created.id, opClaim(key), key),
      lanes.apply(created.id, opCreate(created, { events: [ev(created.id, 1)] })),
      lanes.apply(b.id, opCommit(b.id, step), undefined, directCommit(b.id, step)),
    ]);
    assert.deepEqual(sent, ['sc_json_easko']);
    assert.deepEqual(results, [{ kind: 'committed' }, { claimed: true }, { kind: 'committed' }, { kind: 'committed' }]);
    assert.deepEqual(await snapshotRow(a.id), { current_phase: 'p', seq: 2, data: '{"a":1}' });
    assert.deepEqual((await store.readEvents(b.id)).map((e) => e.seq), [1, 2]);
    assert.equal((await store.getRun(created.id))?.id, created.id);
    await lanes.apply(created.id, opUnlock(key));
  });

  it("claims beside direct writes are taken in the statement's main query, not through the commit function, each answered in order", async () => {
    const [a, b] = [await newRun(), await newRun()];
    const [mine, theirs, second] = [makeRun(), makeRun(), makeRun()];
    const [keyMine, keyTheirs, keySecond] = [claimKey(mine.id), claimKey(theirs.id), claimKey(second.id)];
    // another session holds one of them: its claim is refused, the others taken
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1::bigint)', [keyTheirs]);
      await watchLane(a.id);
      const client = await lanes.laneFor(a.id).client;
      const texts: string[] = [];
      const query = client.query;
      client.query = ((q: { text?: string }, ...rest: unknown[]) => {
        texts.push(q.text ?? '');
        return (query as (...args: unknown[]) => unknown).call(client, q, ...rest);
      }) as typeof client.query;
      try {
        for (const [run, form] of [[a, 'sc_json_esk'], [b, 'sc_rows_1_0_claim']] as const) {
          sent.length = 0;
          texts.length = 0;
          const moved: CommitUnit = { events: [ev(run.id, 2)], ...(run === a ? { snapshot: { runId: a.id, currentPhase: 'p', seq: 2, data: { a: 1 } } } : {}) };
          const claimOf = (r: RunRecord, key: string) => lanes.apply(r.id, opClaim(key), key);
          const results = await Promise.all([
            claimOf(mine, keyMine),
            lanes.apply(run.id, opCommit(run.id, moved), undefined, directCommit(run.id, moved)),
            claimOf(theirs, keyTheirs),
            claimOf(second, keySecond),
          ]);
          assert.deepEqual(sent, [form], 'one statement, the claims in it');
          assert.ok(!texts[0].includes('stagecraft_apply'), 'no call of the commit function: the claims were its only operations');
          assert.deepEqual(results, [{ claimed: true }, { kind: 'committed' }, { claimed: false }, { claimed: true }]);
          assert.deepEqual([await claimHolders(mine.id), await claimHolders(theirs.id), await claimHolders(second.id)], [1, 1, 1]);
          assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1, 2]);
          for (const key of [keyMine, keySecond]) await lanes.apply(mine.id, opUnlock(key));
          assert.deepEqual([await claimHolders(mine.id), await claimHolders(second.id)], [0, 0], 'each taken once: one unlock frees it');
        }
      } finally {
        client.query = query;
      }
    } finally {
      await other.end();
    }
  });
});

describe("a run's creation as a direct write", () => {
  /** creates `run` with `first` through the lanes: its direct write when `direct`, else the commit function */
  async function create(run: RunRecord, first: CommitUnit, direct: boolean): Promise<{ result: unknown; statements: string[] }> {
    await watchLane(run.id);
    sent.length = 0;
    const result = await lanes.apply(run.id, () => opCreate(run, first), undefined, direct ? directCreate(run, first) : null);
    return { result, statements: [...sent] };
  }

  it('reads back exactly as the commit function creates it: the row, its first events, snapshot and artifacts', async () => {
    const parent = await newRun();
    const over = { kind: 'fork' as const, parentRunId: parent.id, forkPoint: 'draft/2', input: { z: 1, a: 'ünï "q" \\ ✓ \u0001', n: null }, skillText: 'x "y" \\ ✓\n' };
    const mine = makeRun(over);
    const twin = makeRun({ ...over, skillName: mine.skillName });
    const first = (id: string): CommitUnit => ({
      events: [ev(id, 1, 'run_started', { b: 1, a: [2] }), ev(id, 2)],
      snapshot: { runId: id, currentPhase: 'draft', seq: 2, data: { phase: 'draft', z: [1, { y: 'ü' }] } },
      // a JSON null payload: json_to_recordset reads it as SQL NULL, stored as the JSON null the commit function stores
      artifacts: [artifact(id, 'a.json', { k: 1 }), artifact(id, 'null.json', null)],
      lazy: true,
    });
    assert.deepEqual(await create(mine, first(mine.id), true), { result: { kind: 'committed' }, statements: ['sc_json_eacs'] });
    assert.deepEqual(await create(twin, first(twin.id), false), { result: { kind: 'committed' }, statements: ['sc_apply'] });
    assert.deepEqual(await runRow(mine.id), await runRow(twin.id));
    assert.deepEqual(await snapshotRow(mine.id), await snapshotRow(twin.id));
    const rec = await store.getRun(mine.id);
    assert.deepEqual(rec, { ...mine, skillVersionId: null });
    const same = <T>(rows: T[], id: string) => JSON.stringify(rows).split(id).join('<run>');
    assert.equal(same(await store.readEvents(mine.id), mine.id), same(await store.readEvents(twin.id), twin.id));
    assert.equal(same(await store.listArtifacts(mine.id), mine.id), same(await store.listArtifacts(twin.id), twin.id));
    // a run with output, error and report at its creation (a replay recorded whole) keeps them, a JSON null as NULL
    const done = makeRun({ status: 'failed', output: null, error: { message: 'boom', step: 1 }, report: { outcome: 'failed' } });
    assert.deepEqual((await create(done, { events: [ev(done.id, 1)] }, true)).statements, ['sc_json_ec']);
    assert.deepEqual(await store.getRun(done.id), { ...done, skillVersionId: null });
    assert.equal((await runRow(done.id)).output, null);
  });

  it('an id that exists, and a first unit that does not start the log, fail as they always did and write nothing', async () => {
    const run = await newRun();
    const again = create(run, { events: [ev(run.id, 1, 'run_started', { again: true })], snapshot: { runId: run.id, currentPhase: 'p', seq: 1, data: {} } }, true);
    await assert.rejects(again, (e: { code?: string }) => e.code === 'SC004');
    assert.deepEqual(sent, ['sc_json_ecs', 'sc_apply'], 'refused, then answered by the commit function');
    await assert.rejects(store.createRun(run, { events: [ev(run.id, 1)] }), RunExistsError);
    assert.deepEqual((await store.readEvents(run.id)).map((e) => e.data), [{ seq: 1 }]);
    assert.equal(await snapshotRow(run.id), null);
    const gap = makeRun();
    await assert.rejects(store.createRun(gap, { events: [ev(gap.id, 2)] }), SeqGapError);
    assert.equal(await store.getRun(gap.id), null, 'the run row is not written either');
  });

  it('a first unit that patches the run row, or has traces, goes through the commit function', () => {
    const run = makeRun();
    assert.ok(directCreate(run, { events: [ev(run.id, 1)] }));
    assert.equal(directCreate(run, { events: [ev(run.id, 1)], run: { status: 'completed' } }), null);
    assert.equal(directCreate(run, { events: [ev(run.id, 1)], traces: [trace(run.id, 1)] }), null);
    assert.equal(directCreate(run, { events: [] }), null);
    assert.equal(directCreate(makeRun({ skillText: 'bad\ud800' }), { events: [ev(run.id, 1)] }), null, 'a lone surrogate would be sent as U+FFFD');
  });
});

describe('timestamps in the direct statements', () => {
  it('are written out as stagecraft_ms_to_ts computes them, with no call of it for the planner to inline', async () => {
    const [a, b] = [makeRun(), makeRun()];
    const end = (id: string) => directCommit(id, { events: [ev(id, 3, 'run_completed')], snapshot: 'delete', run: { status: 'completed', updatedAt: T0 + 3 } })!;
    const statements = [
      directStatement([directCommit(a.id, { events: [ev(a.id, 2)], artifacts: [artifact(a.id, 'f', 1)] })!], []),
      directStatement([directCreate(a, { events: [ev(a.id, 1)], artifacts: [artifact(a.id, 'f', 1)], snapshot: { runId: a.id, currentPhase: 'p', seq: 1, data: {} } })!, end(b.id)], [], ['1']),
      directStatement([end(a.id), end(b.id)], []),
    ];
    for (const s of statements) {
      assert.ok(s.text.includes('to_timestamp('), s.name);
      assert.ok(!s.text.includes('stagecraft_ms_to_ts'), `${s.name} calls stagecraft_ms_to_ts`);
    }
    // the same instant as the function's, to the microsecond, wherever it may be
    const ms = [T0, T0 + 1, 0, -1, 1.5, 1_764_000_000_123.4, 253_402_300_799_999, -62_135_596_800_000];
    const { rows } = await admin().query(`SELECT ms, stagecraft_ms_to_ts(ms) = ${msToTs('ms')} AS same FROM unnest($1::float8[]) AS ms`, [ms]);
    assert.deepEqual(rows.map((r: { same: boolean }) => r.same), ms.map(() => true));
  });
});

describe("the run end's kept plan", () => {
  // A commit lane keeps a generic plan of each statement after five executions, made while the
  // tables are tiny, and keeps it as they grow (never analyzed here: autovacuum off, or below its
  // threshold). The run end's patch of the run row and deletion of its snapshot must find their
  // rows by key in that plan, not scan the tables.
  let fresh: TestDatabase;
  let freshStore: OpenedStore;
  let freshLanes: CommitLanes;
  let client: pg.Client;
  const COMMITTED = { kind: 'committed' };
  before(async () => {
    fresh = await createTestDatabase();
    freshStore = await openStore({ databaseUrl: fresh.url });
    freshLanes = new CommitLanes(fresh.url);
    client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
  });
  after(async () => {
    await client?.end();
    await freshLanes?.close();
    await freshStore?.close();
    await fresh?.drop();
  });

  const end = (id: string, seq: number): CommitUnit => ({
    events: [ev(id, seq, 'run_completed')],
    snapshot: 'delete',
    run: { status: 'completed', updatedAt: T0 + seq, output: { id } },
  });

  /** the plan Postgres keeps for `st` after five executions: forced generic, made now */
  async function genericPlan(st: { name: string; text: string; values: unknown[] }): Promise<string> {
    await client.query(`PREPARE ${st.name} AS ${st.text}`);
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      const { rows } = await client.query(`EXPLAIN EXECUTE ${st.name}(${st.values.map(() => 'NULL').join(', ')})`);
      return rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    } finally {
      await client.query('RESET plan_cache_mode');
      await client.query(`DEALLOCATE ${st.name}`);
    }
  }

  it('finds the run row and the snapshot by key, for one run end in a statement and for several, in one statement for any count', async () => {
    const runs: RunRecord[] = [];
    for (let i = 0; i < 30; i++) {
      const run = makeRun();
      await freshStore.createRun(run, { events: [ev(run.id, 1)], snapshot: { runId: run.id, currentPhase: 'p', seq: 1, data: { i } } });
      runs.push(run);
    }
    // several ends in one statement (a batch at concurrency), then one at a time: each as the commit function writes it
    const together = await Promise.all(runs.slice(0, 3).map((r) => freshLanes.apply(r.id, opCommit(r.id, end(r.id, 2)), undefined, directCommit(r.id, end(r.id, 2)))));
    assert.deepEqual(together, [COMMITTED, COMMITTED, COMMITTED]);
    for (const r of runs.slice(3)) assert.deepEqual(await freshStore.commit(r.id, end(r.id, 2)), COMMITTED);
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM runs WHERE status = 'completed' AND output->>'id' = id`);
    assert.equal(rows[0].n, 30, 'every run row patched');
    assert.equal((await client.query('SELECT count(*)::int AS n FROM snapshots')).rows[0].n, 0, 'every snapshot deleted');

    const withUnlock = (w: DirectWrite): DirectWrite => ({ ...w, moves: { ...w.moves!, unlock: '1' } });
    const ends = (n: number) => directStatement(runs.slice(0, n).map((r) => withUnlock(directCommit(r.id, end(r.id, 3))!)), []);
    const shapes = new Set<string>();
    for (const n of [1, 3, 8]) {
      const st = ends(n);
      shapes.add(`${st.name}\n${st.text}`);
      const plan = await genericPlan(st);
      assert.doesNotMatch(plan, /Seq Scan on (runs|snapshots)/, `${st.name}:\n${plan}`);
      assert.match(plan, /Index Scan using runs_pkey/, `${st.name}:\n${plan}`);
      assert.match(plan, /Index Scan using snapshots_pkey/, `${st.name}:\n${plan}`);
    }
    assert.equal(shapes.size, 1, 'one statement, prepared and planned once, whatever the count of runs ending in it');
  });
});
