/**
 * What the worker tests (kill, chaos) share: a private Postgres server with a
 * database, `stagecraft worker` processes started as users start them, runs
 * of the worker probe (./fixture) queued through the library, and the checks
 * every run must pass — completed with the uninterrupted output, its log
 * gap-free, no committed effect run twice, and no two processes ever running
 * steps of the same run at the same time (from the probe's side log).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { RunEvent } from '../../kernel/ports';
import { openStore, type OpenedStore } from '../../store';
import { createPrivatePostgres, type PrivatePostgres } from '../../store/testing/private-pg';
import { createTestDatabase } from '../../store/testing/pg-test-db';
import { hostFor, type Host } from '../../server/host';
import { enqueueSkillRun } from '../../server/runs/enqueue-run';
import { closeRunQueues } from '../../server/runs/run-source';
import { QUEUE_SCHEMA } from '../run-queue';

const here = path.dirname(new URL(import.meta.url).pathname);
const ROOT = path.resolve(here, '../../..');
export const PROBE_EFFECTS = ['e0', 'e1', 'e2', 'e3'];
/** the probe's postprocessor positions of e0..e3 */
const EFFECT_POSITIONS: Record<string, string> = { e0: '__post__/0', e1: '__post__/2', e2: '__post__/3', e3: '__post__/4' };
export const PROBE_OUTPUT = { title: 'probe', e0: 'e0:probe', p0: 2, e1: 'e1:probe', e2: 'e2:probe', e3: 'e3:probe', total: 5 };

export type Bench = {
  pg: PrivatePostgres;
  url: string;
  dataDir: string;
  bundle: string;
  store: OpenedStore;
  host: Host;
  close(): Promise<void>;
};

/** A private server, a database on it, a data dir the workers share, and a host to queue runs from. */
export async function openBench(prefix: string): Promise<Bench> {
  const pg = await createPrivatePostgres({ prefix: `sc-${prefix}-pg-` });
  const db = await createTestDatabase(pg.adminUrl);
  const dataDir = mkdtempSync(path.join(tmpdir(), `sc-${prefix}-data-`));
  const bundle = mkdtempSync(path.join(tmpdir(), `sc-${prefix}-probe-`));
  cpSync(path.join(here, 'fixture'), bundle, { recursive: true });
  const store = await openStore({ databaseUrl: db.url });
  const host = hostFor({ store, skills: store.skills, env: { ...process.env, DATABASE_URL: db.url, STAGECRAFT_DATA_DIR: dataDir }, cwd: ROOT });
  return {
    pg,
    url: db.url,
    dataDir,
    bundle,
    store,
    host,
    close: async () => {
      await closeRunQueues();
      await store.close().catch(() => undefined);
      pg.remove();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(bundle, { recursive: true, force: true });
    },
  };
}

export async function queueProbeRuns(b: Bench, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await enqueueSkillRun(b.host, { bundle: b.bundle, input: {} })).runId);
  return ids;
}

export type WorkerProcess = {
  child: ChildProcess;
  /** the worker's id, once it said it (its first line) */
  id(): Promise<string>;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

export function startWorker(b: Bench, concurrency: number, env: Record<string, string> = {}): WorkerProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/stagecraft.mjs'), 'worker', '--concurrency', String(concurrency)], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: b.url, STAGECRAFT_DATA_DIR: b.dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let onLine: (() => void) | null = null;
  const collect = (d: Buffer) => {
    out += d;
    onLine?.();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const id = () =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const m = /stagecraft worker: (\S+) drives up to/.exec(out);
        if (m) resolve(m[1]);
      };
      onLine = look;
      look();
      void exited.then(() => reject(new Error(`the worker exited before it said its id:\n${out}`)));
    });
  return { child, id, output: () => out, exited };
}

export async function waitFor(what: string, fn: () => Promise<boolean>, timeoutMs: number, everyMs = 250): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * What a proof says when its runs did not all complete: each status with its count (read on a
 * connection of its own: the bench's store may be the thing that broke), and the tail of every
 * worker's output.
 */
export async function whyNotDone(b: Bench, ids: readonly string[], workers: readonly WorkerProcess[]): Promise<string> {
  let statuses: string;
  const c = new pg.Client({ connectionString: b.url });
  try {
    await c.connect();
    const r = await c.query<{ status: string; n: string }>('SELECT status, count(*) AS n FROM runs WHERE id = ANY($1::text[]) GROUP BY status', [[...ids]]);
    statuses = r.rows.map((x) => `${x.status} ${x.n}`).join(', ') || 'none recorded';
    // each run not completed: its last events (who drove it, where it stopped) and its queue job
    const open = await c.query<{ id: string; status: string }>("SELECT id, status FROM runs WHERE id = ANY($1::text[]) AND status <> 'completed' LIMIT 5", [[...ids]]);
    for (const run of open.rows) {
      const ev = await c.query<{ seq: number; type: string; at: Date; data: unknown }>('SELECT seq, type, at, data FROM events WHERE run_id = $1 ORDER BY seq DESC LIMIT 4', [run.id]);
      const tail = ev.rows.reverse().map((e) => `    #${e.seq} ${e.type} ${e.at.toISOString()} ${JSON.stringify(e.data).slice(0, 160)}`);
      const job = await c
        .query<{ state: string; retry_count: number; started_on: Date | null }>(`SELECT state, retry_count, started_on FROM ${QUEUE_SCHEMA}.job WHERE data ->> 'runId' = $1`, [run.id])
        .then((j) => j.rows.map((x) => `${x.state} (retries ${x.retry_count}, started ${x.started_on?.toISOString() ?? '-'})`).join('; ') || 'no job')
        .catch((e: Error) => `job not readable (${e.message})`);
      statuses += `\n  ${run.id} ${run.status}, queue job: ${job}\n${tail.join('\n')}`;
    }
  } catch (e) {
    statuses = `not readable (${(e as Error).message})`;
  } finally {
    await c.end().catch(() => undefined);
  }
  const tails = workers.map((w, i) => `worker ${i} (exit ${w.child.exitCode ?? w.child.signalCode ?? 'running'}):\n${w.output().split('\n').slice(-15).join('\n')}`);
  return [`runs by status: ${statuses}`, ...tails].join('\n');
}

/** waitFor, and on time out the error says why the runs were not done (whyNotDone) */
export async function waitForRuns(b: Bench, ids: readonly string[], workers: readonly WorkerProcess[], timeoutMs: number): Promise<void> {
  try {
    await waitFor('every run to complete', async () => (await countCompleted(b, ids).catch(() => -1)) === ids.length, timeoutMs, 500);
  } catch (e) {
    throw new Error(`${(e as Error).message}\n${await whyNotDone(b, ids, workers)}`);
  }
}

export async function countCompleted(b: Bench, ids: readonly string[]): Promise<number> {
  return (await b.store.db()).run.count({ where: { id: { in: [...ids] }, status: 'completed' } });
}

export type SideEntry = { kind: 'start' | 'end'; id: string; token: string; at: number };

/** What the probe's effects logged in the run's workspace. */
export function sideEntries(b: Bench, runId: string): SideEntry[] {
  const file = path.join(b.dataDir, 'workspaces', runId, 'side.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [kind, id, token, at] = l.split(' ');
      return { kind: kind as SideEntry['kind'], id, token, at: Number(at) };
    });
}

/** The effect steps a log holds as committed (ok), by effect id. */
export function committedEffects(events: readonly RunEvent[]): Set<string> {
  const done = new Set<string>();
  for (const e of events) {
    if (e.type !== 'step_completed' || e.data.kind !== 'processor' || e.data.status !== 'ok') continue;
    for (const [id, pos] of Object.entries(EFFECT_POSITIONS)) if (e.data.position === pos) done.add(id);
  }
  return done;
}

/**
 * The checks every probe run passes after kills or restarts. `committedAt` holds the effects seen
 * committed at some moment of trouble (each must have run exactly once); `interruptions` is how many
 * times the run was taken up again (each may repeat the one step in flight, once).
 */
export async function checkProbeRun(b: Bench, runId: string, committedAt: Set<string>): Promise<{ events: RunEvent[]; repeats: number }> {
  const run = await b.store.getRun(runId);
  assert.equal(run?.status, 'completed', `${runId}: ${run?.status} ${JSON.stringify(run?.error)}`);
  assert.deepEqual(run!.output, PROBE_OUTPUT, `${runId}: the caller artifact differs from an uninterrupted run's`);
  const events = await b.store.readEvents(runId);
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1), `${runId}: its log has gaps`);
  const interruptions = events.filter((e) => e.type === 'run_resumed').length;
  const starts = sideEntries(b, runId).filter((e) => e.kind === 'start');
  let repeats = 0;
  for (const id of PROBE_EFFECTS) {
    const n = starts.filter((s) => s.id === id).length;
    assert.ok(n >= 1, `${runId}: ${id} never ran`);
    if (committedAt.has(id)) assert.equal(n, 1, `${runId}: ${id} was committed, yet ran ${n} times`);
    repeats += n - 1;
  }
  // each interruption repeats at most the one step that was in flight
  assert.ok(repeats <= interruptions, `${runId}: ${repeats} step(s) ran again over ${interruptions} interruption(s)`);
  assertNoOverlap(runId, sideEntries(b, runId));
  return { events, repeats };
}

/** No two processes ran steps of one run at the same time: executions by different tokens never overlap. */
export function assertNoOverlap(runId: string, entries: readonly SideEntry[]): void {
  const spans: { token: string; id: string; from: number; to: number }[] = [];
  const open = new Map<string, SideEntry>();
  for (const e of entries) {
    const key = `${e.token}:${e.id}`;
    if (e.kind === 'start') open.set(key, e);
    else {
      const s = open.get(key);
      open.delete(key);
      if (s) spans.push({ token: e.token, id: e.id, from: s.at, to: e.at });
    }
  }
  // a step cut off by a kill has a start and no end: it ran until at most the next start of its run
  for (const s of open.values()) spans.push({ token: s.token, id: s.id, from: s.at, to: s.at });
  for (const a of spans) {
    for (const b of spans) {
      if (a === b || a.token === b.token) continue;
      assert.ok(a.to <= b.from || b.to <= a.from, `${runId}: ${a.id} (process ${a.token}) and ${b.id} (process ${b.token}) ran at the same time`);
    }
  }
}

/** The worker driving each of these runs now (running, by its last admission or resume), in one query. */
export async function holdersOf(b: Bench, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await (await b.store.db()).$queryRaw<{ run_id: string; worker: string | null }[]>`
    SELECT DISTINCT ON (e.run_id) e.run_id, (e.data::jsonb) -> 'driver' ->> 'worker' AS worker
      FROM events e JOIN runs r ON r.id = e.run_id
     WHERE e.run_id = ANY(${[...ids]}) AND r.status = 'running' AND e.type IN ('run_admitted', 'run_resumed')
     ORDER BY e.run_id, e.seq DESC`;
  return new Map(rows.filter((r) => r.worker).map((r) => [r.run_id, r.worker!]));
}

/** The worker that drove each stretch of a run, from its log (a queued run is first driven by its admission). */
export function driversOf(events: readonly RunEvent[]): { seq: number; at: number; worker: string | null }[] {
  return events
    .filter((e) => e.type === 'run_admitted' || e.type === 'run_resumed')
    .map((e) => ({ seq: e.seq, at: e.at, worker: ((e.data.driver ?? {}) as { worker?: string }).worker ?? null }));
}
