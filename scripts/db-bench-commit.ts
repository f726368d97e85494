/**
 * Commit latency of PrismaStore, printed as one JSON line:
 *   - a step commit (1 event + 1 stage trace + snapshot upsert), 1000 in a row, one run;
 *   - a batch commit of 100 events, 50 in a row;
 *   - `effectful`: an effectful step's commit (its one step_completed event with a node step's
 *     200-byte result: on Postgres the direct INSERT, wire.ts directCommit), 1000 in a row, and on
 *     Postgres beside it, in alternating blocks of 100, `rawInsert`: its floor, pg-floor.mjs's raw
 *     INSERT of the 200-byte result on a connection of its own (autocommitted). Each with the
 *     server CPU per commit (its backend's, from /proc/<pid>/schedstat; the server must be local,
 *     else null) and this process's main-thread CPU per commit: the machine is shared, so compare
 *     the two of one run, never figures of different runs;
 * on Postgres (a throwaway database on STAGECRAFT_TEST_PG_URL's server) and on
 * the embedded PGlite (a temp data dir, default durability).
 *
 *   tsx scripts/db-bench-commit.ts [--steps 1000] [--batches 50] [--only postgres|pglite] [--tiny]
 * --tiny (or BENCH_TINY=1): 20 step commits and 3 batches on each store (the script works).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { CommitUnit, StorePort } from '../lib/kernel/ports';
import { openStore } from '../lib/store/open-store';
import { ev, makeRun, trace } from '../lib/store/testing/fixtures';
import { createTestDatabase, tempDir } from '../lib/store/testing/pg-test-db';
import { TINY } from '../bench/tiny';
import { COMPILED } from '../bench/compiled';

const { values } = parseArgs({
  options: { steps: { type: 'string', default: TINY ? '20' : '1000' }, batches: { type: 'string', default: TINY ? '3' : '50' }, only: { type: 'string' }, tiny: { type: 'boolean' } },
});
const STEPS = Number(values.steps);
const BATCHES = Number(values.batches);
const BATCH_EVENTS = 100;
const WARMUP = TINY ? 5 : 50;

type Stats = { n: number; meanMs: number; p50Ms: number; p95Ms: number; p99Ms: number };

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { n: s.length, meanMs: r(s.reduce((a, b) => a + b, 0) / s.length), p50Ms: r(q(0.5)), p95Ms: r(q(0.95)), p99Ms: r(q(0.99)) };
}

async function timed(store: StorePort, runId: string, units: CommitUnit[]): Promise<number[]> {
  const out: number[] = [];
  for (const u of units) {
    const t = performance.now();
    const r = await store.commit(runId, u);
    out.push(performance.now() - t);
    if (r.kind !== 'committed') throw new Error('unexpected conflict');
  }
  return out;
}

/** CPU ms a thread has run (schedstat: ns on the CPU), or NaN where it cannot be read (a server elsewhere) */
function threadCpuMs(file: string): number {
  try {
    return Number(readFileSync(file, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}
const selfCpuMs = () => threadCpuMs('/proc/thread-self/schedstat');

/** the peers' deterministic ~200-byte step result (bench-peers/common.mjs stepResult) */
function stepResult(runId: string, i: number) {
  const o = { run: runId, step: i, ok: true, sum: (i * 2654435761) % 1000003, tag: `step-${i}`, pad: '' };
  o.pad = 'x'.repeat(Math.max(0, 200 - JSON.stringify(o).length));
  return o;
}

type Side = Stats & { serverCpuMsPerCommit: number | null; clientCpuMsPerCommit: number | null };

/**
 * An effectful node step's commit (what its journal writes: one step_completed event holding the
 * step's 200-byte result), and on Postgres its floor — pg-floor's raw INSERT on a plain connection
 * — in alternating blocks, so that both see the same moments of a shared machine.
 */
async function effectful(store: StorePort, url: string | null) {
  const run = makeRun();
  await store.createRun(run, { events: [ev(run.id, 1, 'run_started')] });
  let seq = 1;
  const commitOne = async () => {
    seq++;
    const i = seq - 2;
    const data = {
      index: i, type: 'node', kind: 'processor', phase: '__post__', position: `__post__/${i}`, key: `k${i}`.padEnd(32, '0'), defHash: 'd'.repeat(32),
      definition: { type: 'node', module: './step.mjs', function: 'step', into: null, pure: false }, status: 'ok', output: { i: i + 1, last: stepResult('bench', i) }, durationMs: 0.4,
    };
    const r = await store.commit(run.id, { events: [{ runId: run.id, seq, type: 'step_completed', at: Date.now(), data }] });
    if (r.kind !== 'committed') throw new Error('unexpected conflict');
  };
  const raw = url ? new pg.Client({ connectionString: url }) : null;
  let rawBackend = '';
  let laneBackend = '';
  let step = 0;
  const rawOne = async () => {
    step++;
    await raw!.query('INSERT INTO floor_steps (run_id, step, result) VALUES ($1, $2, $3)', [run.id, step, JSON.stringify(stepResult(run.id, step))]);
  };
  if (raw) {
    await raw.connect();
    await raw.query('CREATE TABLE IF NOT EXISTS floor_steps (run_id text NOT NULL, step int NOT NULL, result jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (run_id, step))');
    rawBackend = `/proc/${(await raw.query('SELECT pg_backend_pid() AS p')).rows[0].p}/schedstat`;
    const lane = await raw.query("SELECT pid FROM pg_stat_activity WHERE application_name = 'stagecraft-commit' AND datname = current_database()");
    laneBackend = lane.rows.length === 1 ? `/proc/${lane.rows[0].pid}/schedstat` : '';
  }
  const sides = { effectful: { ms: [] as number[], server: 0, client: 0 }, rawInsert: { ms: [] as number[], server: 0, client: 0 } };
  const block = async (side: keyof typeof sides, one: () => Promise<void>, n: number, backend: string) => {
    const s0 = threadCpuMs(backend);
    const c0 = selfCpuMs();
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await one();
      sides[side].ms.push(performance.now() - t);
    }
    sides[side].client += selfCpuMs() - c0;
    sides[side].server += threadCpuMs(backend) - s0;
  };
  try {
    for (let i = 0; i < WARMUP; i++) {
      await commitOne();
      if (raw) await rawOne();
    }
    const BLOCK = Math.min(100, STEPS);
    for (let done = 0; done < STEPS; done += BLOCK) {
      await block('effectful', commitOne, Math.min(BLOCK, STEPS - done), laneBackend);
      if (raw) await block('rawInsert', rawOne, Math.min(BLOCK, STEPS - done), rawBackend);
    }
  } finally {
    await raw?.end();
  }
  const side = (x: (typeof sides)['effectful']): Side => {
    const n = x.ms.length;
    const per = (v: number) => (Number.isFinite(v) ? Math.round((v / n) * 1000) / 1000 : null);
    return { ...stats(x.ms), serverCpuMsPerCommit: per(x.server), clientCpuMsPerCommit: per(x.client) };
  };
  return raw ? { effectful: side(sides.effectful), rawInsert: side(sides.rawInsert) } : { effectful: side(sides.effectful) };
}

async function bench(store: StorePort) {
  // step commits, as the kernel makes them after each non-pure step
  const run = makeRun();
  await store.createRun(run, { events: [ev(run.id, 1, 'run_started')] });
  let seq = 1;
  const stepUnit = (): CommitUnit => {
    seq++;
    return {
      events: [ev(run.id, seq, 'step_completed', { position: `draft/r${seq}/model`, key: `k${seq}`, output: { text: 'x'.repeat(200) } })],
      traces: [trace(run.id, seq)],
      snapshot: { runId: run.id, currentPhase: 'draft', seq, data: { round: seq, phaseInput: { topic: 'bench' } } },
    };
  };
  await timed(store, run.id, Array.from({ length: WARMUP }, stepUnit));
  const step = stats(await timed(store, run.id, Array.from({ length: STEPS }, stepUnit)));

  // group commits of pure steps
  const batchRun = makeRun();
  await store.createRun(batchRun, { events: [ev(batchRun.id, 1, 'run_started')] });
  let bseq = 1;
  const batchUnit = (): CommitUnit => ({
    events: Array.from({ length: BATCH_EVENTS }, () => {
      bseq++;
      return ev(batchRun.id, bseq, 'step_completed', { position: `__post__/${bseq}`, output: { ok: true, n: bseq } });
    }),
    snapshot: { runId: batchRun.id, currentPhase: '__post__', seq: bseq, data: {} },
  });
  const batch = stats(await timed(store, batchRun.id, Array.from({ length: BATCHES }, batchUnit)));
  return { step, batch100: { ...batch, perEventMs: Math.round((batch.meanMs / BATCH_EVENTS) * 1000) / 1000 } };
}

const result: Record<string, unknown> = { steps: STEPS, batches: BATCHES, batchEvents: BATCH_EVENTS, compiled: COMPILED };
if (values.only !== 'pglite') {
  const db = await createTestDatabase();
  const store = await openStore({ databaseUrl: db.url });
  try {
    result.postgres = { ...(await bench(store)), ...(await effectful(store, db.url)) };
  } finally {
    await store.close();
    await db.drop();
  }
}
if (values.only !== 'postgres') {
  const dir = tempDir('stagecraft-bench-');
  const store = await openStore({ dataDir: dir.dir });
  try {
    result.pglite = { ...(await bench(store)), ...(await effectful(store, null)) };
  } finally {
    await store.close();
    dir.remove();
  }
}
console.log(JSON.stringify(result));
process.exit(0);
