// Large payloads on the embedded store (PGlite in a temp data dir): a unit whose payloads pass
// DIRECT_FROM_CHARS travels as plain SQL with each payload as its own JSON text (wire.ts
// directStatement), not escaped as a string into stagecraft_apply's jsonb, and is read back as it
// was written; smaller units keep the line's batches through stagecraft_apply.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import type { JsonObject } from '../kernel/json';
import type { CommitUnit } from '../kernel/ports';
import { openStore, type OpenedStore } from './open-store';
import { DIRECT_FROM_CHARS } from './commit-route';
import { ev, makeRun, T0 } from './testing/fixtures';
import { createTestDatabase, tempDir, type TestDatabase } from './testing/pg-test-db';

const dataDir = tempDir();
let store: OpenedStore;
before(async () => {
  store = await openStore({ dataDir: dataDir.dir });
});
after(async () => {
  await store?.close();
  dataDir.remove();
});

/** a value of about `chars` JSON characters, keys out of order, full of quotes and escapes */
function bigValue(chars: number): JsonObject {
  const rows: JsonObject[] = [];
  for (let n = 0; n < chars; n += 80) rows.push({ z: n, a: `say "hi"\t\\ ${n}`, ünï: [n % 3 === 0, null, 2.5] });
  return { zeta: 'first', rows, alpha: 'last' };
}

/** a parameter's characters (one given as its UTF-8 bytes: those of its text) */
const charsOf = (p: unknown): number => (typeof p === 'string' ? p.length : p instanceof Uint8Array ? new TextDecoder().decode(p).length : JSON.stringify(p ?? null).length);

/** the statements PGlite runs while `fn` does, with their parameters' characters and whether any went as bytes */
async function statementsOf(fn: () => Promise<unknown>): Promise<{ text: string; chars: number; bytes: boolean }[]> {
  const seen: { text: string; chars: number; bytes: boolean }[] = [];
  const proto = PGlite.prototype as unknown as { query: (text: unknown, params?: unknown[], ...rest: unknown[]) => Promise<unknown> };
  const query = proto.query;
  proto.query = function (this: unknown, text: unknown, params?: unknown[], ...rest: unknown[]) {
    const chars = (params ?? []).reduce<number>((n, p) => n + charsOf(p), 0);
    seen.push({ text: String(text), chars, bytes: (params ?? []).some((p) => p instanceof Uint8Array) });
    return query.call(this, text, params, ...rest);
  };
  try {
    await fn();
  } finally {
    proto.query = query;
  }
  return seen;
}

/** a run's end at `seq` whose run_completed event carries `output` (as the kernel's does) */
const runEnd = (runId: string, seq: number, output: JsonObject): CommitUnit => ({
  events: [{ runId, seq, type: 'run_completed', at: T0 + seq, data: { output, report: { steps: 2 } } }],
  snapshot: 'delete',
  run: { status: 'completed', output, report: { steps: 2 }, updatedAt: T0 + seq },
});

/** the runs row's output as the database holds its text */
async function outputText(runId: string, on: OpenedStore = store): Promise<string> {
  const rows = await on.sql!('SELECT "output"::text AS o FROM "runs" WHERE "id" = $1', [runId]);
  return rows[0].o as string;
}

async function newRun(): Promise<string> {
  const run = makeRun();
  await store.createRun(run, { events: [ev(run.id, 1, 'run_started')] });
  return run.id;
}

describe('a large payload on the embedded store', () => {
  it("is sent once, as its own JSON text: not escaped into stagecraft_apply's jsonb", async () => {
    const runId = await newRun();
    const value = bigValue(2 * DIRECT_FROM_CHARS);
    const chars = JSON.stringify(value).length;
    const sent = await statementsOf(() => store.commit(runId, { events: [ev(runId, 2, 'step_completed', { output: value })] }));
    const carrying = sent.filter((s) => s.chars > DIRECT_FROM_CHARS);
    assert.equal(carrying.length, 1, JSON.stringify(sent.map((s) => [s.text.slice(0, 60), s.chars])));
    assert.doesNotMatch(carrying[0].text, /stagecraft_apply/);
    assert.ok(carrying[0].chars < chars + 4096, `${carrying[0].chars} characters sent for a payload of ${chars}`);
  });

  it('is read back as written (key order, escapes), in the event and in the run row', async () => {
    const runId = await newRun();
    const value = bigValue(2 * DIRECT_FROM_CHARS);
    await store.commit(runId, { events: [ev(runId, 2, 'step_completed', { output: value })] });
    const end: CommitUnit = { events: [{ runId, seq: 3, type: 'run_completed', at: T0 + 3, data: { output: value, note: 'end' } }], snapshot: 'delete', run: { status: 'completed', output: value, updatedAt: T0 + 3 } };
    assert.deepEqual(await store.commit(runId, end), { kind: 'committed' });
    const events = await store.readEvents(runId);
    assert.equal(JSON.stringify(events[1].data), JSON.stringify({ output: value }));
    assert.equal(JSON.stringify(events[2].data), JSON.stringify({ output: value, note: 'end' }));
    const run = await store.getRun(runId);
    assert.equal(run?.status, 'completed');
    assert.equal(JSON.stringify(run?.output), JSON.stringify(value));
  });

  it("a run's end sends its output once: the runs row's copy is taken from its run_completed event, the same text", async () => {
    const runId = await newRun();
    const value = bigValue(2 * DIRECT_FROM_CHARS);
    const chars = JSON.stringify(value).length;
    const end = runEnd(runId, 2, value);
    const sent = await statementsOf(() => store.commit(runId, end));
    const total = sent.reduce((n, st) => n + st.chars, 0);
    assert.ok(total < chars + 4096, `${total} characters sent for an output of ${chars}`);
    assert.equal(await outputText(runId), JSON.stringify(value));
  });

  it('goes to PGlite as its UTF-8 bytes, not as a string PGlite measures a character at a time', async () => {
    const runId = await newRun();
    const value = bigValue(2 * DIRECT_FROM_CHARS);
    const sent = await statementsOf(() => store.commit(runId, { events: [ev(runId, 2, 'step_completed', { output: value })] }));
    assert.deepEqual(sent.map((s) => s.bytes), [true]);
    assert.equal(JSON.stringify((await store.readEvents(runId))[1].data), JSON.stringify({ output: value }));
  });

  it('sent again at a recorded seq, answers a conflict with what is recorded', async () => {
    const runId = await newRun();
    const value = bigValue(2 * DIRECT_FROM_CHARS);
    await store.commit(runId, { events: [ev(runId, 2, 'step_completed', { output: value })] });
    const again = await store.commit(runId, { events: [ev(runId, 2, 'step_completed', { output: { other: true, pad: 'x'.repeat(DIRECT_FROM_CHARS) } })] });
    assert.equal(again.kind, 'conflict');
    assert.equal(again.kind === 'conflict' && JSON.stringify(again.recorded[0].data), JSON.stringify({ output: value }));
  });

  it('below DIRECT_FROM_CHARS, goes through stagecraft_apply as before', async () => {
    const runId = await newRun();
    const sent = await statementsOf(() => store.commit(runId, { events: [ev(runId, 2, 'step_completed', { output: bigValue(DIRECT_FROM_CHARS / 4) })] }));
    assert.ok(sent.some((s) => /stagecraft_apply/.test(s.text)), JSON.stringify(sent.map((s) => s.text.slice(0, 60))));
  });
});

describe('a large output at the end of a run on Postgres', () => {
  let database: TestDatabase;
  let pg: OpenedStore;
  before(async () => {
    database = await createTestDatabase();
    pg = await openStore({ databaseUrl: database.url });
  });
  after(async () => {
    await pg?.close();
    await database?.drop();
  });

  it("is held by the runs row as the run_completed event holds it, the same text as an op's", async () => {
    const value = bigValue(2 * DIRECT_FROM_CHARS);
    const run = makeRun();
    await pg.createRun(run, { events: [ev(run.id, 1, 'run_started')] });
    assert.deepEqual(await pg.commit(run.id, runEnd(run.id, 2, value)), { kind: 'committed' });
    assert.equal(await outputText(run.id, pg), JSON.stringify(value));
    assert.equal(JSON.stringify((await pg.readEvents(run.id))[1].data), JSON.stringify({ output: value, report: { steps: 2 } }));
    const r = await pg.getRun(run.id);
    assert.deepEqual([r?.status, r?.report], ['completed', { steps: 2 }]);
  });
});
