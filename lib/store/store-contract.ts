/**
 * The StorePort contract as one test suite, run against every implementation
 * (MemoryStore in store-contract.test.ts; PGlite and Postgres in
 * prisma-store.db.test.ts), so "behaves like MemoryStore" is checked, not
 * hoped for.
 *
 * Owns: what a store must do, observed only through the port. Does not: test
 * what only one backend has (the append-only trigger, cross-process claims,
 * the data-dir lock), which live in the *.db.test.ts files.
 *
 * Every test makes its own runs (fresh ids, its own skill name), so one store
 * can be shared by the whole suite: a PGlite initdb costs seconds.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../kernel/json';
import type { CommitUnit, RunEvent, RunRecord, StorePort } from '../kernel/ports';
import { artifact, ev, makeRun, T0, trace } from './testing/fixtures';

export type StoreFactory = () => Promise<StorePort>;

function stepCompleted(runId: string, seq: number, position: string, output: JsonObject): RunEvent {
  return ev(runId, seq, 'step_completed', {
    position,
    key: `key-${position}`,
    defHash: `def-${position}`,
    definition: { op: 'validate', args: { schema: 'x' } },
    kind: 'processor',
    status: 'ok',
    output,
  });
}

/** Creates a run whose log holds events 1..n. */
async function runWith(store: StorePort, n: number, over: Partial<RunRecord> = {}): Promise<RunRecord> {
  const run = makeRun(over);
  await store.createRun(run, { events: Array.from({ length: n }, (_, i) => ev(run.id, i + 1, i === 0 ? 'run_started' : 'phase_started')) });
  return run;
}

export function describeStoreContract(name: string, makeStore: StoreFactory, opts: { closeAfter?: boolean } = {}) {
  describe(`StorePort contract: ${name}`, () => {
    let store: StorePort;
    before(async () => {
      store = await makeStore();
    });
    after(async () => {
      if (opts.closeAfter !== false) await store.close();
    });

    it('createRun stores the record and its first unit', async () => {
      const run = makeRun({ parentRunId: 'run-parent', output: { partial: [1, 2] } });
      await store.createRun(run, {
        events: [ev(run.id, 1, 'run_started', { input: run.input })],
        snapshot: { runId: run.id, currentPhase: 'draft', seq: 1, data: { phaseInput: { a: 1 } } },
      });
      assert.deepEqual(await store.getRun(run.id), run);
      assert.deepEqual(await store.readEvents(run.id), [ev(run.id, 1, 'run_started', { input: run.input })]);
      assert.deepEqual(await store.readSnapshot(run.id), { runId: run.id, currentPhase: 'draft', seq: 1, data: { phaseInput: { a: 1 } } });
    });

    it('createRun refuses an id that exists', async () => {
      const run = await runWith(store, 1);
      await assert.rejects(store.createRun(run, { events: [] }));
      assert.equal((await store.readEvents(run.id)).length, 1);
    });

    it('commit appends events in seq order; readEvents(afterSeq) returns the tail', async () => {
      const run = await runWith(store, 1);
      assert.deepEqual(await store.commit(run.id, { events: [ev(run.id, 2), ev(run.id, 3)] }), { kind: 'committed' });
      assert.deepEqual(await store.commit(run.id, { events: [ev(run.id, 4)] }), { kind: 'committed' });
      assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1, 2, 3, 4]);
      assert.deepEqual(await store.readEvents(run.id, 2), [ev(run.id, 3), ev(run.id, 4)]);
      assert.deepEqual(await store.readEvents(run.id, 4), []);
    });

    it('readEvents(afterSeq, limit) reads one page of the log: at most `limit` events after the cursor, in seq order', async () => {
      const run = await runWith(store, 25);
      const page = async (after: number, limit: number) => (await store.readEvents(run.id, after, limit)).map((e) => e.seq);
      assert.deepEqual(await page(0, 10), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      assert.deepEqual(await page(10, 10), [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
      assert.deepEqual(await page(20, 10), [21, 22, 23, 24, 25]);
      assert.deepEqual(await page(25, 10), []);
      assert.deepEqual(await page(3, 1), [4]);
      assert.deepEqual(await page(0, 0), []);
      assert.deepEqual(await store.readEvents(run.id, 22, 100), [ev(run.id, 23, 'phase_started'), ev(run.id, 24, 'phase_started'), ev(run.id, 25, 'phase_started')]);
      // paging through the whole log gives the log, once
      const seen: number[] = [];
      for (let after = 0; ; ) {
        const got = await store.readEvents(run.id, after, 7);
        if (got.length === 0) break;
        seen.push(...got.map((e) => e.seq));
        after = got[got.length - 1].seq;
      }
      assert.deepEqual(seen, Array.from({ length: 25 }, (_, i) => i + 1));
    });

    it('onAppend hears of each committed append in this process (run and last seq), not of a conflict; stopping it stops it', async () => {
      assert.ok(store.onAppend, 'this store tells of its appends');
      const heard: [string, number][] = [];
      const run = makeRun();
      const stop = store.onAppend((runId, lastSeq) => runId === run.id && heard.push([runId, lastSeq]));
      await store.createRun(run, { events: [ev(run.id, 1, 'run_started'), ev(run.id, 2)] });
      await store.commit(run.id, { events: [ev(run.id, 3)] });
      await store.commit(run.id, { events: [ev(run.id, 2)] }); // a conflict appends nothing
      await store.commit(run.id, { events: [], run: { updatedAt: T0 + 5 } }); // nor does a unit without events
      stop();
      await store.commit(run.id, { events: [ev(run.id, 4)] });
      assert.deepEqual(heard, [
        [run.id, 2],
        [run.id, 3],
      ]);
    });

    it('a recorded seq is a conflict carrying what is recorded, and nothing of the unit is applied', async () => {
      const run = await runWith(store, 2);
      const t = trace(run.id, 2);
      await store.commit(run.id, { events: [ev(run.id, 3, 'step_completed', { original: true })] });
      const before = { run: await store.getRun(run.id), arts: await store.listArtifacts(run.id) };
      const res = await store.commit(run.id, {
        events: [ev(run.id, 3, 'step_completed', { duplicate: true }), ev(run.id, 4)],
        traces: [t],
        snapshot: { runId: run.id, currentPhase: 'other', seq: 4, data: {} },
        artifacts: [artifact(run.id, 'out.json', { x: 1 })],
        run: { status: 'completed', output: { done: true }, updatedAt: T0 + 99 },
      });
      assert.deepEqual(res, { kind: 'conflict', recorded: [ev(run.id, 3, 'step_completed', { original: true })] });
      assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1, 2, 3]);
      assert.deepEqual(await store.readTraces(run.id), []);
      assert.equal(await store.readSnapshot(run.id), null);
      assert.deepEqual(await store.listArtifacts(run.id), before.arts);
      assert.deepEqual(await store.getRun(run.id), before.run);
    });

    it('a conflict returns every recorded event the unit names', async () => {
      const run = await runWith(store, 3);
      const res = await store.commit(run.id, { events: [ev(run.id, 2, 'x'), ev(run.id, 3, 'x'), ev(run.id, 4, 'x')] });
      assert.deepEqual(res, { kind: 'conflict', recorded: [ev(run.id, 2, 'phase_started'), ev(run.id, 3, 'phase_started')] });
    });

    it('a seq gap throws and applies nothing', async () => {
      const run = await runWith(store, 2);
      await assert.rejects(
        store.commit(run.id, { events: [ev(run.id, 4)], snapshot: { runId: run.id, currentPhase: 'p', seq: 4, data: {} } }),
        /gap/,
      );
      await assert.rejects(store.commit(run.id, { events: [ev(run.id, 3), ev(run.id, 5)] }), /gap/);
      await assert.rejects(store.commit(run.id, { events: [ev(run.id, 3), ev(run.id, 3)] }), /gap/);
      assert.deepEqual((await store.readEvents(run.id)).map((e) => e.seq), [1, 2]);
      assert.equal(await store.readSnapshot(run.id), null);
    });

    it('the first event of a run must be seq 1', async () => {
      const run = makeRun();
      await assert.rejects(store.createRun(run, { events: [ev(run.id, 2)] }), /gap/);
    });

    it('a unit without events still moves the snapshot, artifacts and run', async () => {
      const run = await runWith(store, 1);
      assert.deepEqual(await store.commit(run.id, { events: [] }), { kind: 'committed' });
      assert.deepEqual(
        await store.commit(run.id, { events: [], run: { report: { outcome: 'succeeded' } } }),
        { kind: 'committed' },
      );
      assert.deepEqual((await store.getRun(run.id))?.report, { outcome: 'succeeded' });
    });

    it('the run patch sets only the keys it has; null clears', async () => {
      const run = await runWith(store, 1, { output: { draft: 1 }, report: { r: 1 } });
      await store.commit(run.id, { events: [ev(run.id, 2)], run: { status: 'failed', error: { code: 'x', message: 'boom' }, updatedAt: T0 + 5 } });
      let got = await store.getRun(run.id);
      assert.deepEqual(got, { ...run, status: 'failed', error: { code: 'x', message: 'boom' }, updatedAt: T0 + 5 });
      await store.commit(run.id, { events: [], run: { output: null, report: null } });
      got = await store.getRun(run.id);
      assert.deepEqual(got, { ...run, status: 'failed', error: { code: 'x', message: 'boom' }, updatedAt: T0 + 5, output: null, report: null });
      await store.commit(run.id, { events: [], run: { output: 'plain text' } });
      assert.equal((await store.getRun(run.id))?.output, 'plain text');
      await store.commit(run.id, { events: [], run: { output: [1, { a: [] }] } });
      assert.deepEqual((await store.getRun(run.id))?.output, [1, { a: [] }]);
    });

    it('traces round-trip in the order they were committed', async () => {
      const run = await runWith(store, 1);
      const a = trace(run.id, 2, { rung: 'prompt-assembly', status: 'refused', effects: { asked: ['prompt.write'], granted: [], missing: ['prompt.write'] }, contribution: null });
      const b = trace(run.id, 2, { status: 'failed', error: { message: 'boom', stack: 'Error: boom\n    at x' }, notApplied: [{ path: 'artifact', why: 'no grant' }] });
      const c = trace(run.id, 3, { stage: 'later', durationMs: 0.5, contribution: 'text' });
      await store.commit(run.id, { events: [ev(run.id, 2)], traces: [a, b] });
      await store.commit(run.id, { events: [ev(run.id, 3)], traces: [c] });
      assert.deepEqual(await store.readTraces(run.id), [a, b, c]);
    });

    it('the snapshot is written, replaced and deleted with its unit', async () => {
      const run = await runWith(store, 1);
      assert.equal(await store.readSnapshot(run.id), null);
      await store.commit(run.id, { events: [ev(run.id, 2)], snapshot: { runId: run.id, currentPhase: 'draft', seq: 2, data: { a: 1 } } });
      await store.commit(run.id, { events: [ev(run.id, 3)], snapshot: { runId: run.id, currentPhase: '__post__', seq: 3, data: { artifactPath: 'finish.json' } } });
      assert.deepEqual(await store.readSnapshot(run.id), { runId: run.id, currentPhase: '__post__', seq: 3, data: { artifactPath: 'finish.json' } });
      assert.ok((await store.listResumable()).includes(run.id));
      await store.commit(run.id, { events: [ev(run.id, 4, 'run_completed')], snapshot: 'delete', run: { status: 'completed' } });
      assert.equal(await store.readSnapshot(run.id), null);
      assert.ok(!(await store.listResumable()).includes(run.id));
    });

    it('listResumable lists runs with a snapshot in creation order', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const run = makeRun();
        ids.push(run.id);
        await store.createRun(run, { events: [ev(run.id, 1)], snapshot: { runId: run.id, currentPhase: 'a', seq: 1, data: {} } });
      }
      await store.commit(ids[1], { events: [], snapshot: 'delete' });
      const listed = (await store.listResumable()).filter((id) => ids.includes(id));
      assert.deepEqual(listed, [ids[0], ids[2]]);
    });

    it('artifacts upsert by path: replaced in place, listed in order of first write', async () => {
      const run = await runWith(store, 1);
      const a1 = artifact(run.id, 'a.json', { v: 1 });
      const b = artifact(run.id, 'b.txt', 'plain text ✓');
      const a2 = artifact(run.id, 'a.json', { v: 2 }, T0 + 7);
      const c1 = artifact(run.id, 'c', [1, 2]);
      const c2 = artifact(run.id, 'c', null);
      await store.commit(run.id, { events: [ev(run.id, 2)], artifacts: [a1, b] });
      await store.commit(run.id, { events: [ev(run.id, 3)], artifacts: [a2, c1, c2] });
      assert.deepEqual(await store.listArtifacts(run.id), [a2, b, c2]);
      assert.deepEqual(await store.readArtifact(run.id, 'a.json'), a2);
      assert.deepEqual(await store.readArtifact(run.id, 'c'), c2);
      assert.equal(await store.readArtifact(run.id, 'missing.json'), null);
    });

    it('readMemo is the step_completed events, in seq order', async () => {
      const run = await runWith(store, 1);
      await store.commit(run.id, { events: [stepCompleted(run.id, 2, 'draft/pre/0', { ok: 1 }), ev(run.id, 3)] });
      await store.commit(run.id, { events: [stepCompleted(run.id, 4, 'draft/r1/model', { text: 'hi' })] });
      const memo = await store.readMemo(run.id);
      assert.deepEqual(memo.map((m) => [m.seq, m.position, m.key, m.defHash, m.kind, m.status]), [
        [2, 'draft/pre/0', 'key-draft/pre/0', 'def-draft/pre/0', 'processor', 'ok'],
        [4, 'draft/r1/model', 'key-draft/r1/model', 'def-draft/r1/model', 'processor', 'ok'],
      ]);
      assert.deepEqual(memo[1].output, { text: 'hi' });
      assert.deepEqual(memo[0].definition, { op: 'validate', args: { schema: 'x' } });
    });

    it('listRuns filters by status and skill, newest first, ties in creation order, limited', async () => {
      const skillName = `skill-${randomUUID()}`;
      const r1 = await runWith(store, 1, { skillName, createdAt: T0 + 1 });
      const r2 = await runWith(store, 1, { skillName, createdAt: T0 + 3 });
      const r3 = await runWith(store, 1, { skillName, createdAt: T0 + 3 });
      const r4 = await runWith(store, 1, { skillName, createdAt: T0 + 2 });
      await store.commit(r4.id, { events: [], run: { status: 'failed' } });
      const ids = (rs: RunRecord[]) => rs.map((r) => r.id);
      assert.deepEqual(ids(await store.listRuns({ skillName })), [r2.id, r3.id, r4.id, r1.id]);
      assert.deepEqual(ids(await store.listRuns({ skillName, limit: 2 })), [r2.id, r3.id]);
      assert.deepEqual(ids(await store.listRuns({ skillName, status: ['failed'] })), [r4.id]);
      assert.deepEqual(ids(await store.listRuns({ skillName, status: ['running', 'failed'] })), [r2.id, r3.id, r4.id, r1.id]);
      assert.deepEqual(ids(await store.listRuns({ skillName, status: [] })), []);
      assert.deepEqual(ids(await store.listRuns({ skillName, limit: 0 })), []);
      assert.deepEqual((await store.listRuns({ skillName }))[3], r1);
    });

    it('countRuns counts what listRuns lists; idPrefix selects a run’s descendants (`<root id>.`)', async () => {
      const skillName = `skill-${randomUUID()}`;
      const root = await runWith(store, 1, { skillName });
      const child = await runWith(store, 1, { skillName, id: `${root.id}.c1`, parentRunId: root.id });
      await runWith(store, 1, { skillName, id: `${child.id}.g1`, parentRunId: child.id });
      await runWith(store, 1, { skillName, id: `${root.id}x` });
      assert.equal(await store.countRuns({ skillName }), 4);
      assert.equal(await store.countRuns({ idPrefix: `${root.id}.` }), 2);
      assert.deepEqual((await store.listRuns({ idPrefix: `${child.id}.` })).map((r) => r.parentRunId), [child.id]);
      assert.equal(await store.countRuns({ skillName, status: ['failed'] }), 0);
    });

    it('a run keeps its kind, parent and fork point; listRuns filters by kind and parent', async () => {
      const skillName = `skill-${randomUUID()}`;
      const parent = await runWith(store, 1, { skillName, createdAt: T0 + 1 });
      const replay = await runWith(store, 1, { skillName, kind: 'replay', parentRunId: parent.id, createdAt: T0 + 2 });
      const fork = await runWith(store, 1, { skillName, kind: 'fork', parentRunId: parent.id, forkPoint: '__post__/3/input', createdAt: T0 + 3 });
      assert.deepEqual(await store.getRun(fork.id), fork);
      assert.equal((await store.getRun(parent.id))?.kind, 'run');
      const ids = (rs: RunRecord[]) => rs.map((r) => r.id);
      assert.deepEqual(ids(await store.listRuns({ skillName, kind: ['replay', 'fork'] })), [fork.id, replay.id]);
      assert.deepEqual(ids(await store.listRuns({ skillName, kind: ['run'] })), [parent.id]);
      assert.deepEqual(ids(await store.listRuns({ parentRunId: parent.id })), [fork.id, replay.id]);
      assert.deepEqual(ids(await store.listRuns({ parentRunId: parent.id, kind: ['fork'] })), [fork.id]);
    });

    it('claimRun is exclusive until released', async () => {
      const run = await runWith(store, 1);
      assert.equal(store.holdsClaim?.(run.id), false, 'nobody drives it yet');
      const claim = await store.claimRun(run.id);
      assert.ok(claim);
      assert.equal(store.holdsClaim?.(run.id), true, 'this process drives it now');
      assert.equal(await store.claimRun(run.id), null);
      const other = await store.claimRun(`${run.id}-other`);
      assert.ok(other);
      await claim.release();
      assert.equal(store.holdsClaim?.(run.id), false, 'released: no longer driven here');
      assert.equal(store.holdsClaim?.(`${run.id}-other`), true);
      await claim.release(); // idempotent
      const again = await store.claimRun(run.id);
      assert.ok(again);
      await again.release();
      await other.release();
    });

    it('an unknown run: null for the record and snapshot, an error for its logs', async () => {
      const id = `run-missing-${randomUUID()}`;
      assert.equal(await store.getRun(id), null);
      assert.equal(await store.readSnapshot(id), null);
      await assert.rejects(store.readEvents(id), /no run/i);
      await assert.rejects(store.readTraces(id), /no run/i);
      await assert.rejects(store.readMemo(id), /no run/i);
      await assert.rejects(store.listArtifacts(id), /no run/i);
      await assert.rejects(store.readArtifact(id, 'x'), /no run/i);
      await assert.rejects(store.commit(id, { events: [ev(id, 1)] }), /no run/i);
    });

    it('recorded JSON reads back verbatim: key order, NUL characters, unpaired surrogates', async () => {
      const odd: JsonObject = { zebra: 1, apple: { z: 1, a: 2 }, nul: 'a\u0000b', half: 'x \ud800 y', 'a longer key': [{ y: 1, x: 2 }] };
      const same = (a: unknown, b: unknown) => assert.equal(JSON.stringify(a), JSON.stringify(b));
      const run = await runWith(store, 1, { input: { title: 'T', body: 'B', alpha: odd } });
      const t = trace(run.id, 2, { contribution: odd, effects: { missing: [], granted: ['x'], asked: ['x'] } });
      await store.commit(run.id, {
        events: [ev(run.id, 2, 'step_completed', odd)],
        traces: [t],
        snapshot: { runId: run.id, currentPhase: 'draft', seq: 2, data: odd },
        artifacts: [artifact(run.id, 'finish.json', { title: 'T', body: 'B', odd })],
        run: { output: { title: 'T', body: 'B', odd } },
      });
      same((await store.readEvents(run.id, 1))[0].data, odd);
      same((await store.readTraces(run.id))[0], t);
      same((await store.readSnapshot(run.id))?.data, odd);
      same((await store.readArtifact(run.id, 'finish.json'))?.content, { title: 'T', body: 'B', odd });
      const got = await store.getRun(run.id);
      same(got?.input, run.input);
      same(got?.output, { title: 'T', body: 'B', odd });
      const conflict = await store.commit(run.id, { events: [ev(run.id, 2)] });
      assert.equal(conflict.kind, 'conflict');
      if (conflict.kind === 'conflict') same(conflict.recorded[0].data, odd);
    });

    it("a run's error and report holding a NUL or an unpaired surrogate: its end is recorded (not refused), those two read \\x00 and U+FFFD, its events as written", async () => {
      const error: JsonObject = { code: 'step_failed', message: 'ValueError: e\u0000f', details: { stderrTail: 'x \ud800 y' } };
      const report: JsonObject = { outcome: 'blocked', needs_attention: true, blocked_by: { stage: 'guard', reason: 'no \u0000 here', why: 'half \udc00' } };
      const run = await runWith(store, 1);
      const committed = await store.commit(run.id, { events: [ev(run.id, 2, 'run_failed', { error, report })], run: { status: 'failed', error, report } });
      assert.equal(committed.kind, 'committed', JSON.stringify(committed));
      const got = await store.getRun(run.id);
      assert.equal(got?.status, 'failed');
      assert.deepEqual(got?.error, { code: 'step_failed', message: 'ValueError: e\\x00f', details: { stderrTail: 'x \ufffd y' } });
      assert.deepEqual(got?.report, { outcome: 'blocked', needs_attention: true, blocked_by: { stage: 'guard', reason: 'no \\x00 here', why: 'half \ufffd' } });
      assert.equal(JSON.stringify((await store.readEvents(run.id, 1))[0].data), JSON.stringify({ error, report }), 'the event keeps what was recorded');
      // a run made with them (an imported run's row) is written the same way
      const made = await runWith(store, 1, { status: 'completed', error, report });
      assert.equal((await store.getRun(made.id))?.error?.message, 'ValueError: e\\x00f');
    });

    it('JSON values round-trip: unicode, escapes, numbers, nesting, empty containers', async () => {
      const data: JsonObject = {
        text: 'line1\nline2\t"quoted" \\ back ✓ 日本語 emoji 🎉',
        ints: [0, -1, 2 ** 53 - 1, -(2 ** 31)],
        floats: [0.1 + 0.2, 1e-7, 123.456, -2.5e20],
        flags: [true, false, null],
        empty: { obj: {}, arr: [], str: '' },
        deep: { a: { b: { c: { d: [[[{ e: 'f' }]]] } } } },
        'key with spaces & "quotes"': 1,
      };
      const run = await runWith(store, 1);
      const unit: CommitUnit = { events: [ev(run.id, 2, 'step_completed', data)] };
      await store.commit(run.id, unit);
      assert.deepEqual((await store.readEvents(run.id, 1))[0].data, data);
    });

    it('an abort request is recorded once (the first stays), read back, and heard by a watcher of its run', async () => {
      const run = await runWith(store, 1);
      const other = await runWith(store, 1);
      assert.equal(await store.readAbortRequest(run.id), null);
      const heard: string[] = [];
      const heardOther: string[] = [];
      const stop = store.watchAbortRequest(run.id, (r) => heard.push(r.reason));
      const stopOther = store.watchAbortRequest(other.id, (r) => heardOther.push(r.reason));
      const first = { runId: run.id, reason: 'not needed', requestedBy: 'cli (user dana)', via: 'cli', requestedAt: T0 + 5 };
      assert.deepEqual(await store.requestAbort(first), first);
      assert.deepEqual(await store.requestAbort({ ...first, reason: 'again', requestedBy: 'the app', via: null, requestedAt: T0 + 9 }), first, 'the first request stays');
      assert.deepEqual(await store.readAbortRequest(run.id), first);
      await waitFor(() => heard.length > 0);
      assert.deepEqual(heard, ['not needed'], 'heard once');
      assert.deepEqual(heardOther, [], 'a watcher of another run hears nothing');
      stop();
      stopOther();
      // a request recorded before the watch began is heard too
      const late: string[] = [];
      const stopLate = store.watchAbortRequest(run.id, (r) => late.push(r.reason));
      await waitFor(() => late.length > 0);
      stopLate();
      assert.deepEqual(late, ['not needed']);
      await assert.rejects(store.requestAbort({ ...first, runId: `missing-${randomUUID()}` }));
    });
  });
}

async function waitFor(cond: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('not heard in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
