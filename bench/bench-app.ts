/**
 * `npm run bench:app`: the built app under its own load, on the embedded store and on Postgres,
 * printed as one JSON line. `npx next build` must have run; the app is started as users start it
 * (`next start`, lib/server/http/testing/app-server.ts) with a fresh data dir (and, for Postgres, a
 * fresh database on STAGECRAFT_TEST_PG_URL's server).
 *
 * Per store (`embedded`, `postgres`):
 *   burst         RUNS (50) runs of examples/summarize started at once through `POST /api/runs`:
 *                 runsPerSec (first POST sent → last run ended), startP50Ms / startP95Ms (a POST until its
 *                 `{runId}`), failed (a POST that was not 201, or a run that did not complete: must be 0)
 *   serverPeakRssMb   the server's peak resident memory during the burst: every process of its group
 *                 (next start and what it forks; code steps run in sandboxes of their own sessions)
 *   startMs       one run started at a time on the warm app, `POST /api/runs` until `{runId}` (median of
 *                 REPS), each run left to end before the next starts
 * And `inProcessRunMs`: a `run` of the same skill in this process (startSkillRun on an embedded store,
 * what `stagecraft run` does once loaded), warm, to its end (median of REPS). `startVsInProcess` is the
 * embedded app's startMs over it (target ≤ 2).
 *
 * --tiny (or BENCH_TINY=1): 5 runs a burst, 2 reps (the script works; the figures mean little).
 * BENCH_PORT: the port the app listens on (default: a free one).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type AppServer } from '../lib/server/http/testing/app-server';
import { createTestDatabase } from '../lib/store/testing/pg-test-db';
import { openStore } from '../lib/store';
import { hostFor } from '../lib/server/host';
import { startSkillRun } from '../lib/server/runs/start-run';
import { size, TINY } from './tiny';
import { COMPILED } from './compiled';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const RUNS = size(50, 5);
const REPS = size(7, 2);
const SKILL = 'summarize';
const BUNDLE = path.join(ROOT, 'examples', SKILL);
const INPUT = JSON.parse(readFileSync(path.join(BUNDLE, 'input.json'), 'utf8')) as Record<string, never>;
const ENDED = new Set(['completed', 'failed', 'aborted']);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1) : NaN;
};
const median = (xs: number[]) => pct(xs, 50);

/** `POST /api/runs` of the skill: its `{runId}` and how long the answer took, or why it failed. */
async function startOne(app: AppServer): Promise<{ runId: string | null; ms: number; error?: string }> {
  const t0 = performance.now();
  const r = await fetch(`${app.url}/api/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ skill: SKILL, input: INPUT }) });
  const body = (await r.json()) as { runId?: string; error?: { message: string } };
  const ms = performance.now() - t0;
  if (r.status !== 201 || !body.runId) return { runId: null, ms, error: `${r.status} ${body.error?.message ?? JSON.stringify(body)}` };
  return { runId: body.runId, ms };
}

/** Waits until every run has ended; their statuses. */
async function ended(app: AppServer, ids: string[]): Promise<Map<string, string>> {
  const status = new Map<string, string>();
  const deadline = Date.now() + 10 * 60_000;
  while (status.size < ids.length) {
    if (Date.now() > deadline) throw new Error(`runs still not ended after 10 minutes: ${ids.filter((id) => !status.has(id)).join(', ')}`);
    for (const id of ids.filter((i) => !status.has(i))) {
      const r = await fetch(`${app.url}/api/runs/${id}`);
      const s = r.ok ? ((await r.json()) as { status: string }).status : `http ${r.status}`;
      if (ENDED.has(s) || !r.ok) status.set(id, s);
    }
    if (status.size < ids.length) await new Promise((r) => setTimeout(r, 50));
  }
  return status;
}

/** Resident memory of every process in the group `pgid` (the server and what it forks), in bytes. */
function groupRss(pgid: number): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      if (Number(f[2]) !== pgid) continue;
      total += Number(f[21]) * 4096; // rss, in pages
    } catch {
      /* gone */
    }
  }
  return total;
}

async function measureApp(app: AppServer) {
  // warm: the routes compiled, the skill's version recorded and copied, the store's statements prepared
  const warm = await startOne(app);
  if (!warm.runId) throw new Error(`the warm-up run did not start: ${warm.error}`);
  await ended(app, [warm.runId]);

  const starts: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const s = await startOne(app);
    if (!s.runId) throw new Error(`a run did not start: ${s.error}`);
    starts.push(s.ms);
    await ended(app, [s.runId]);
  }

  let peak = groupRss(app.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, groupRss(app.pid))), 50);
  const t0 = performance.now();
  const burst = await Promise.all(Array.from({ length: RUNS }, () => startOne(app)));
  const ids = burst.flatMap((b) => (b.runId ? [b.runId] : []));
  const statuses = await ended(app, ids);
  const wallMs = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, groupRss(app.pid));
  const failures = [...burst.filter((b) => b.error).map((b) => b.error!), ...[...statuses].filter(([, s]) => s !== 'completed').map(([id, s]) => `${id}: ${s}`)];
  return {
    runs: RUNS,
    runsPerSec: +((RUNS * 1000) / wallMs).toFixed(2),
    wallMs: Math.round(wallMs),
    startP50Ms: median(burst.map((b) => b.ms)),
    startP95Ms: pct(burst.map((b) => b.ms), 95),
    failed: failures.length,
    ...(failures.length ? { failures: failures.slice(0, 5) } : {}),
    serverPeakRssMb: Math.round(peak / 2 ** 20),
    startMs: median(starts),
  };
}

async function withApp<T>(env: Record<string, string>, fn: (app: AppServer) => Promise<T>): Promise<T> {
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined;
  const app = await startApp({ env, port });
  try {
    return await fn(app);
  } catch (e) {
    process.stderr.write(`the app's output:\n${app.output().slice(-4000)}\n`);
    throw e;
  } finally {
    await app.stop();
  }
}

/** A `run` of the same skill in this process, on an embedded store: warm, to its end. */
async function inProcessRunMs(): Promise<number> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sc-bench-app-'));
  const store = await openStore({ dataDir: path.join(dataDir, 'db') });
  const host = hostFor({ store, skills: store.skills, env: { ...process.env, DATABASE_URL: undefined, STAGECRAFT_DATA_DIR: dataDir }, cwd: ROOT });
  try {
    const once = async () => {
      const t0 = performance.now();
      const r = await startSkillRun(host, { bundle: BUNDLE, input: INPUT });
      if (r.status !== 'completed') throw new Error(`the in-process run ${r.runId} ended ${r.status}`);
      return performance.now() - t0;
    };
    await once();
    const ms: number[] = [];
    for (let i = 0; i < REPS; i++) ms.push(await once());
    return median(ms);
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!existsSync(path.join(ROOT, '.next', 'BUILD_ID'))) {
  process.stderr.write('bench:app measures the built app: run `npx next build` first\n');
  process.exit(2);
}
const embedded = await withApp({}, measureApp);
const db = await createTestDatabase();
let postgres;
try {
  postgres = await withApp({ DATABASE_URL: db.url }, measureApp);
} finally {
  await db.drop().catch(() => undefined);
}
const inProcess = await inProcessRunMs();
const result = {
  bench: 'app',
  tiny: TINY,
  compiled: COMPILED,
  skill: SKILL,
  embedded,
  postgres,
  inProcessRunMs: inProcess,
  startVsInProcess: +(embedded.startMs / inProcess).toFixed(2),
  target: { startVsInProcess: 2, failed: 0 },
  ok: embedded.failed === 0 && postgres.failed === 0 && embedded.startMs / inProcess <= 2,
  cpus: os.cpus().length,
  load1: +os.loadavg()[0].toFixed(2),
  node: process.version,
};
process.stdout.write(JSON.stringify(result) + '\n');
process.exit(embedded.failed || postgres.failed ? 1 : 0);
