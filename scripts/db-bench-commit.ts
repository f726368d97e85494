/**
 * Commit latency of PrismaStore, printed as one JSON line:
 *   - a step commit (1 event + 1 stage trace + snapshot upsert), 1000 in a row, one run;
 *   - a batch commit of 100 events, 50 in a row;
 * on Postgres (a throwaway database on STAGECRAFT_TEST_PG_URL's server) and on
 * the embedded PGlite (a temp data dir, default durability).
 *
 *   tsx scripts/db-bench-commit.ts [--steps 1000] [--batches 50] [--only postgres|pglite] [--tiny]
 * --tiny (or BENCH_TINY=1): 20 step commits and 3 batches on each store (the script works).
 */
import { parseArgs } from 'node:util';
import type { CommitUnit, StorePort } from '../lib/kernel/ports';
import { openStore } from '../lib/store/open-store';
import { ev, makeRun, trace } from '../lib/store/testing/fixtures';
import { createTestDatabase, tempDir } from '../lib/store/testing/pg-test-db';
import { TINY } from '../bench/tiny';

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

const result: Record<string, unknown> = { steps: STEPS, batches: BATCHES, batchEvents: BATCH_EVENTS };
if (values.only !== 'pglite') {
  const db = await createTestDatabase();
  const store = await openStore({ databaseUrl: db.url });
  try {
    result.postgres = await bench(store);
  } finally {
    await store.close();
    await db.drop();
  }
}
if (values.only !== 'postgres') {
  const dir = tempDir('stagecraft-bench-');
  const store = await openStore({ dataDir: dir.dir });
  try {
    result.pglite = await bench(store);
  } finally {
    await store.close();
    dir.remove();
  }
}
console.log(JSON.stringify(result));
process.exit(0);
