/**
 * `npm run bench:workers`: runs per second of the research_brief example (a
 * model script, two module capabilities and three builtin stages per run, tool
 * calls), driven three ways against the same Postgres in the same process
 * tree, one after the other:
 *
 *   in-process  this process drives the runs itself, 8 at a time (what the app
 *               and the CLI do without STAGECRAFT_WORKERS=external);
 *   workers=1   the runs are queued, one `stagecraft worker --concurrency 8`
 *               drives them;
 *   workers=2   the same with two worker processes (--concurrency 8 each).
 *
 * Each mode gets a fresh database (the tiny size shares one); a mode's clock runs from the first run
 * recorded to the last one ended (worker start-up is not counted: workers are
 * long-lived). Prints one JSON line: runs/s, per-run latency (recorded → ended)
 * p50/p95, how long queued runs waited for a slot and how long a run took once
 * started (p50/p95), and ratios against in-process — compare ratios from one line only,
 * the machine is shared.
 *
 * Size: RUNS (default 200); `--tiny` or BENCH_TINY=1 runs 4 per mode (what
 * `npm test` uses to keep the script working). The database: a server of its
 * own (initdb in a temp dir, as the chaos test makes) unless BENCH_PG_URL names
 * an admin URL of a server to create the databases on.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore, type OpenedStore } from '../lib/store';
import { hostFor } from '../lib/server/host';
import { startSkillRun } from '../lib/server/runs/start-run';
import { enqueueSkillRun } from '../lib/server/runs/enqueue-run';
import { closeRunQueues } from '../lib/server/runs/run-source';
import { createPrivatePostgres, type PrivatePostgres } from '../lib/store/testing/private-pg';
import { createTestDatabase } from '../lib/store/testing/pg-test-db';
import { TINY } from './tiny';
import { COMPILED } from './compiled';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const RUNS = TINY ? 4 : Number(process.env.RUNS ?? 200);
const CONCURRENCY = 8;
const BUNDLE = path.join(ROOT, 'examples/research_brief');
const INPUT = { question: 'What did the reading pilot achieve?' };

/** latency: recorded → ended; wait: recorded → started (queued runs wait for a free slot); run: started → ended */
type ModeResult = { runs: number; wallMs: number; runsPerSec: number; latencyP50Ms: number; latencyP95Ms: number; waitP50Ms: number; runP50Ms: number; runP95Ms: number; failed: number };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

async function summarize(store: OpenedStore, ids: string[], wallMs: number): Promise<ModeResult> {
  const rows = await (await store.db()).run.findMany({ where: { id: { in: ids } }, select: { id: true, status: true, createdAt: true, updatedAt: true } });
  const latencies = rows.map((r) => r.updatedAt.getTime() - r.createdAt.getTime());
  const spans = await (await store.db()).event.groupBy({ by: ['runId'], where: { runId: { in: ids } }, _min: { at: true }, _max: { at: true } });
  const created = new Map(rows.map((r) => [r.id, r.createdAt.getTime()]));
  const waits = spans.map((x) => x._min.at!.getTime() - created.get(x.runId)!);
  const durations = spans.map((x) => x._max.at!.getTime() - x._min.at!.getTime());
  return {
    runs: ids.length,
    wallMs: Math.round(wallMs),
    runsPerSec: +((ids.length * 1000) / wallMs).toFixed(2),
    latencyP50Ms: pct(latencies, 50),
    latencyP95Ms: pct(latencies, 95),
    waitP50Ms: pct(waits, 50),
    runP50Ms: pct(durations, 50),
    runP95Ms: pct(durations, 95),
    failed: rows.filter((r) => r.status !== 'completed').length,
  };
}

async function withDatabase<T>(adminUrl: string, fn: (url: string, dataDir: string) => Promise<T>): Promise<T> {
  const db = await createTestDatabase(adminUrl);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sc-bench-workers-'));
  try {
    return await fn(db.url, dataDir);
  } finally {
    await closeRunQueues();
    await db.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function openHost(url: string, dataDir: string) {
  const store = await openStore({ databaseUrl: url });
  return { store, host: hostFor({ store, skills: store.skills, env: { ...process.env, DATABASE_URL: url, STAGECRAFT_DATA_DIR: dataDir }, cwd: ROOT }) };
}

async function inProcess(url: string, dataDir: string): Promise<ModeResult> {
  const { store, host } = await openHost(url, dataDir);
  try {
    await startSkillRun(host, { bundle: BUNDLE, input: INPUT }); // warm: the version recorded, the copy made
    const ids: string[] = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < RUNS) {
          next++;
          ids.push((await startSkillRun(host, { bundle: BUNDLE, input: INPUT })).runId);
        }
      }),
    );
    return await summarize(store, ids, performance.now() - t0);
  } finally {
    await store.close();
  }
}

function startWorker(url: string, dataDir: string): { ready: Promise<void>; stop: () => Promise<void> } {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/stagecraft.mjs'), 'worker', '--concurrency', String(CONCURRENCY)], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, STAGECRAFT_DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      err += d;
      if (/drives up to/.test(err)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`a worker exited (${code}):\n${err}`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  return { ready, stop: async () => void (child.kill('SIGTERM'), await exited) };
}

async function viaWorkers(url: string, dataDir: string, workers: number): Promise<ModeResult> {
  const { store, host } = await openHost(url, dataDir);
  const procs = Array.from({ length: workers }, () => startWorker(url, dataDir));
  try {
    await Promise.all(procs.map((p) => p.ready));
    // warm, as in-process is: one run through the queue (the version recorded, the workers' copies made)
    const warm = (await enqueueSkillRun(host, { bundle: BUNDLE, input: INPUT })).runId;
    await waitAllEnded(store, [warm]);
    const t0 = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < RUNS; i++) ids.push((await enqueueSkillRun(host, { bundle: BUNDLE, input: INPUT })).runId);
    await waitAllEnded(store, ids);
    return await summarize(store, ids, performance.now() - t0);
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await closeRunQueues();
    await store.close();
  }
}

async function waitAllEnded(store: OpenedStore, ids: string[]): Promise<void> {
  const deadline = Date.now() + 30 * 60_000;
  while ((await (await store.db()).run.count({ where: { id: { in: ids }, status: { in: ['completed', 'failed', 'aborted'] } } })) < ids.length) {
    if (Date.now() > deadline) throw new Error('the runs did not end within 30 minutes');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main(): Promise<void> {
  let pg: PrivatePostgres | null = null;
  const adminUrl = process.env.BENCH_PG_URL ?? (pg = await createPrivatePostgres({ prefix: 'sc-bench-pg-' })).adminUrl;
  try {
    // the tiny size checks the script works: one database for the three modes saves their set-up
    const modes = async (url: string, dir: string) => [await inProcess(url, dir), await viaWorkers(url, dir, 1), await viaWorkers(url, dir, 2)];
    const [inProc, w1, w2] = TINY
      ? await withDatabase(adminUrl, modes)
      : [await withDatabase(adminUrl, inProcess), await withDatabase(adminUrl, (url, dir) => viaWorkers(url, dir, 1)), await withDatabase(adminUrl, (url, dir) => viaWorkers(url, dir, 2))];
    const ratio = (a: ModeResult, b: ModeResult) => +(a.runsPerSec / b.runsPerSec).toFixed(2);
    const line = {
      bench: 'workers',
      compiled: COMPILED,
      skill: 'research_brief',
      runs: RUNS,
      concurrency: CONCURRENCY,
      tiny: TINY,
      cores: os.availableParallelism(),
      load1: +os.loadavg()[0].toFixed(2),
      inProcess: inProc,
      workers1: w1,
      workers2: w2,
      workers1VsInProcess: ratio(w1, inProc),
      workers2VsInProcess: ratio(w2, inProc),
      workers2VsWorkers1: ratio(w2, w1),
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    if (inProc.failed + w1.failed + w2.failed > 0) process.exitCode = 1;
  } finally {
    pg?.remove();
  }
}

await main();
// the Wasm migration engine leaves a timer behind (toolchain note): exit explicitly
process.exit(process.exitCode ?? 0);
