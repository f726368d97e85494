// Crash-safety proof: the crash probe runs in a child process that is
// SIGKILLed at named fault points around each commit and at random moments;
// after each kill the run is resumed, and we check that it finishes, that no
// committed step's side effect happened twice, that world-purity reads ran
// again, that seq is gap-free, and that the caller artifact equals the one of
// an uninterrupted run. CRASH_KILLS (default 30: every fault point, then random moments) sets how many kills.
// What a killed child left is read once its backends are gone: a statement it sent still commits after its exit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStore, type OpenedStore } from '../../store';
import { createTestDatabase, type TestDatabase } from '../../store/testing/pg-test-db';
import { FAULT_POINTS } from '../../kernel/faults';
import type { RunEvent } from '../../kernel/ports';
import { compileBench } from '../../../bench/compile.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
// the child runs compiled, as a shipped build runs: a TypeScript loader would cost each of the ~70
// processes a second or more of start (the kills land at fault points, not at moments of the start)
let WORKER = '';
const KILLS = Number(process.env.CRASH_KILLS ?? 30);
const EFFECTS = ['e0', 'e1', 'e2', 'e3', 'e4'];

let db: TestDatabase;
let store: OpenedStore;
/** this process's own connection for watching the database's backends (pg_stat_activity) */
let watcher: pg.Client;
// where the children keep the runs' workspaces (and the copies they execute from)
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-crash-data-'));
before(async () => {
  WORKER = await compileBench('lib/server/crash/worker.ts');
  db = await createTestDatabase();
  store = await openStore({ databaseUrl: db.url });
  watcher = new pg.Client({ connectionString: db.url });
  await watcher.connect();
});
after(async () => {
  await watcher?.end();
  await store?.close();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

type ChildResult = { code: number | null; signal: NodeJS.Signals | null; out: string; err: string };

/** the backends connected to the test database now (this process's own among them), each as its pid and start */
async function backends(): Promise<Set<string>> {
  const r = await watcher.query<{ id: string }>("SELECT pid || '@' || backend_start AS id FROM pg_stat_activity WHERE datname = current_database()");
  return new Set(r.rows.map((row) => row.id));
}

/**
 * A SIGKILL does not stop a statement the process had sent: its backend runs it to the end and
 * commits it (a run's step, or its end), then finds its client gone. So what the killed process
 * left in the store is known only once every backend it opened (those not there before it
 * started) has gone; until then a read of the log "at kill" may miss its last commit.
 */
async function killedProcessSettled(before: Set<string>): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const left = [...(await backends())].filter((id) => !before.has(id));
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error(`the killed process's backends ${left.join(', ')} are still there 30 s after its exit`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * `killAfterMs`, or `killOn` once it resolves: SIGKILLed then. A child killed (by us or at a fault
 * point) is answered once what it sent has landed (killedProcessSettled).
 */
async function child(args: string[], env: Record<string, string>, killAfterMs?: number, killOn?: Promise<unknown>): Promise<ChildResult> {
  const before = await backends();
  const r = await new Promise<ChildResult>((resolve, reject) => {
    const p = spawn(process.execPath, [WORKER, ...args], {
      env: { ...process.env, DATABASE_URL: db.url, STAGECRAFT_DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    const timer = killAfterMs === undefined ? null : setTimeout(() => p.kill('SIGKILL'), killAfterMs);
    void killOn?.then(() => p.kill('SIGKILL'));
    p.on('error', reject);
    p.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, out, err });
    });
  });
  // (a child on the embedded store opens no backend: nothing to wait for)
  if (r.signal === 'SIGKILL') await killedProcessSettled(before);
  return r;
}

function freshBundle(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-crash-'));
  cpSync(path.join(here, 'fixture'), dir, { recursive: true });
  return dir;
}

/** What the probe's steps logged: each execution appends a line to side.log in its working folder, the run's workspace. */
function sideLines(runId: string, data = dataDir): string[] {
  const log = path.join(data, 'workspaces', runId, 'side.log');
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => l.split(' ')[0]) : [];
}

const committedEffects = (events: RunEvent[]) =>
  new Set(events.filter((e) => e.type === 'step_completed' && e.data.kind === 'processor' && e.data.type === 'node' && e.data.status === 'ok').map((e) => String(e.data.position)));

let expected: unknown;
let uninterruptedMs = 2000;

test('an uninterrupted run of the crash probe', async () => {
  const dir = freshBundle();
  const t0 = Date.now();
  const r = await child(['start', 'run_uninterrupted', dir], {});
  uninterruptedMs = Date.now() - t0;
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out.trim().split('\n').pop()!);
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  expected = out.output;
  assert.deepEqual(sideLines('run_uninterrupted').sort(), [...EFFECTS, 'p0', 'p1'].sort());
  rmSync(dir, { recursive: true, force: true });
});

type Kill = { label: string; env: Record<string, string>; killAfterMs?: number };

/** the kill schedule: every fault point at several hits, then random moments until KILLS have landed */
function* schedule(landed: () => number): Generator<Kill> {
  const hits: Record<string, number[]> = {
    'before-step': [1, 3, 5, 8, 10, 12, 14, 16],
    'after-step-before-commit': [1, 2, 4, 6, 8, 10, 12],
    'after-commit': [1, 2, 3, 5, 7, 9, 11, 13],
    'before-postprocessor': [1],
    'after-artifact-persisted': [1],
  };
  for (const p of FAULT_POINTS) for (const n of hits[p] ?? [1]) yield { label: `${p}:${n}`, env: { STAGECRAFT_FAULT: `${p}:${n}` } };
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  // random moments across the run's lifetime (process start included), bounded in count
  for (let attempt = 0; landed() < KILLS && attempt < KILLS * 3; attempt++) {
    const ms = Math.floor(uninterruptedMs * (0.25 + 0.75 * rand()));
    yield { label: `random@${ms}ms`, env: {}, killAfterMs: ms };
  }
}

/**
 * The first child of a kill. A random moment that comes after the run's end measured a run shorter
 * than the uninterrupted one (whose start a load spike may have slowed many times over: then no
 * random moment would land): the later moments are drawn within this run's lifetime.
 */
async function startProbe(k: Kill, runId: string, dir: string): Promise<ChildResult> {
  const t0 = Date.now();
  const first = await child(['start', runId, dir], k.env, k.killAfterMs);
  if (first.signal !== 'SIGKILL' && k.killAfterMs !== undefined) uninterruptedMs = Math.min(uninterruptedMs, Date.now() - t0);
  return first;
}

test('a random moment after the run has ended draws the later ones within that run (a slowed first measure lands no kill)', async () => {
  assert.ok(expected, 'the uninterrupted run must pass first');
  const measured = uninterruptedMs;
  // the uninterrupted run measured during a load spike: far longer than the probe's runs are now
  uninterruptedMs = 60_000;
  const dir = freshBundle();
  const r = await startProbe({ label: 'random@60000ms', env: {}, killAfterMs: 60_000 }, 'run_recalibrate', dir);
  rmSync(dir, { recursive: true, force: true });
  assert.equal(r.code, 0, r.err);
  assert.ok(uninterruptedMs < 60_000, 'the next random moments are still drawn from the slowed measure');
  const moments = schedule(() => 0);
  let next = moments.next();
  while (!next.done && next.value.killAfterMs === undefined) next = moments.next();
  assert.ok(next.value && next.value.killAfterMs! <= uninterruptedMs, JSON.stringify(next.value));
  uninterruptedMs = Math.min(measured, uninterruptedMs);
});

test(`SIGKILL at fault points and random moments (${KILLS} kills), resume each: exactly-once for committed steps`, async () => {
  assert.ok(expected, 'the uninterrupted run must pass first');
  let kills = 0;
  let worldRereads = 0;
  let i = 0;
  for (const k of schedule(() => kills)) {
    i++;
    const dir = freshBundle();
    const runId = `run_crash_${i}`;
    const first = await startProbe(k, runId, dir);
    if (first.signal !== 'SIGKILL') {
      // the random timer fired after the run was already done: count nothing, but it must have completed
      assert.equal(first.code, 0, `${k.label}: ${first.err}`);
      rmSync(dir, { recursive: true, force: true });
      continue;
    }
    kills++;
    // read once the killed child's last statement has landed (child: killedProcessSettled)
    const run = await store.getRun(runId);
    const atKill = run ? await store.readEvents(runId) : [];
    const committed = committedEffects(atKill);
    const linesAtKill = sideLines(runId);
    const resumed = run?.status === 'running';
    if (run && run.status === 'running') {
      const r = await child(['resume', runId], {});
      assert.equal(r.code, 0, `${k.label}: resume failed: ${r.err}`);
      const out = JSON.parse(r.out.trim().split('\n').pop()!);
      assert.equal(out.status, 'completed', `${k.label}: ${JSON.stringify(out.error)}`);
      assert.deepEqual(out.output, expected, `${k.label}: the caller artifact differs from an uninterrupted run`);
    } else if (run) {
      // killed after the last commit: the run is complete as recorded
      assert.equal(run.status, 'completed', k.label);
      assert.deepEqual(run.output, expected, k.label);
    } else {
      // killed before the run row was committed: nothing to resume, nothing may have run
      assert.deepEqual(linesAtKill, [], `${k.label}: effects before the run existed`);
      rmSync(dir, { recursive: true, force: true });
      continue;
    }
    const events = await store.readEvents(runId);
    assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1), `${k.label}: seq has gaps`);
    const lines = sideLines(runId);
    for (const id of EFFECTS) {
      const n = lines.filter((l) => l === id).length;
      assert.ok(n >= 1, `${k.label}: ${id} never ran`);
      const position = `__post__/${[0, 2, 4, 7, 8][EFFECTS.indexOf(id)]}`;
      if (committed.has(position)) assert.equal(n, 1, `${k.label}: committed step ${id} ran ${n} times`);
      else assert.ok(n <= 2, `${k.label}: ${id} ran ${n} times (at most once more than committed)`);
    }
    const reRan = EFFECTS.filter((id) => lines.filter((l) => l === id).length > 1);
    assert.ok(reRan.length <= 1, `${k.label}: more than the in-flight step re-ran: ${reRan}`);
    // world-purity: if the post file/read was committed before the kill and the resume re-entered __post__, it ran again
    const readsAtKill = atKill.filter((e) => e.data.position === '__post__/3').length;
    const readsNow = events.filter((e) => e.data.position === '__post__/3').length;
    if (resumed && readsAtKill === 1) {
      assert.equal(readsNow, 2, `${k.label}: the world-purity read was not re-executed`);
      worldRereads++;
    }
    rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(kills >= Math.min(50, KILLS - 2), `only ${kills} of ${KILLS} kills landed`);
  assert.ok(worldRereads >= 3, `world-purity re-execution observed only ${worldRereads} times`);
});

test('two resumers racing the same run: each seq is written once, the loser stops cleanly', async () => {
  const dir = freshBundle();
  const runId = 'run_race';
  const first = await child(['start', runId, dir], { STAGECRAFT_FAULT: 'before-postprocessor:1' });
  assert.equal(first.signal, 'SIGKILL');
  const [a, b] = await Promise.all([child(['resume', runId], {}), child(['resume', runId], {})]);
  const statuses = [a, b].map((r) => (assert.equal(r.code, 0, r.err), JSON.parse(r.out.trim().split('\n').pop()!).status)).sort();
  assert.ok(statuses.includes('completed'), JSON.stringify(statuses));
  assert.ok(statuses.every((s) => s === 'completed' || s === 'superseded'), JSON.stringify(statuses));
  const events = await store.readEvents(runId);
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
  const lines = sideLines(runId);
  for (const id of EFFECTS) assert.equal(lines.filter((l) => l === id).length, 1, `${id} ran more than once`);
  rmSync(dir, { recursive: true, force: true });
});

test("a run's end sent just before a SIGKILL commits after the exit: what the killed process left is read once its backends are gone", async () => {
  assert.ok(expected, 'the uninterrupted run must pass first');
  const dir = freshBundle();
  const runId = 'run_late_end';
  const holder = new pg.Client({ connectionString: db.url });
  await holder.connect();
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  // once the run exists its row is held: its end, the only commit that updates it (an event's key
  // check only shares it), waits for the lock, in flight when the child is killed
  const blocked = (async () => {
    while (!(await watcher.query('SELECT 1 FROM runs WHERE id = $1', [runId])).rowCount) await pause(5);
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM runs WHERE id = $1 FOR NO KEY UPDATE', [runId]);
    const waiting = "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'";
    const ended = "SELECT 1 FROM runs WHERE id = $1 AND status <> 'running'";
    while (!(await watcher.query(waiting)).rowCount && !(await watcher.query(ended, [runId])).rowCount) await pause(10);
  })();
  // the lock goes well after the exit (a loaded server's delay, made long): read at the exit, the run would still be running
  void blocked.then(() => setTimeout(() => void holder.query('COMMIT').catch(() => undefined), 500));
  try {
    const first = await child(['start', runId, dir], {}, undefined, blocked);
    assert.equal(first.signal, 'SIGKILL', `the run ended before its end could be held: ${first.err}`);
    const run = await store.getRun(runId);
    assert.equal(run?.status, 'completed', 'the end the killed process had sent is in the store');
    assert.deepEqual(run?.output, expected);
    const events = await store.readEvents(runId);
    assert.equal(events.at(-1)?.type, 'run_completed');
    assert.equal(events.filter((e) => e.data.position === '__post__/3').length, 1, 'nothing resumed it');
  } finally {
    await holder.end();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the embedded store: SIGKILL at fault points (stale data-dir lock taken over), resume, exactly-once', async () => {
  assert.ok(expected, 'the uninterrupted run must pass first');
  const embeddedDir = mkdtempSync(path.join(tmpdir(), 'sc-crash-pglite-'));
  const env = { DATABASE_URL: '', STAGECRAFT_DATA_DIR: embeddedDir };
  const points = ['after-commit:2', 'after-commit:6', 'before-step:9', 'after-step-before-commit:5', 'before-postprocessor:1', 'after-artifact-persisted:1'];
  for (const [i, fault] of points.entries()) {
    const dir = freshBundle();
    const runId = `run_pglite_${i}`;
    const first = await child(['start', runId, dir], { ...env, STAGECRAFT_FAULT: fault });
    assert.equal(first.signal, 'SIGKILL', `${fault}: ${first.err}`);
    const r = await child(['resume', runId], env);
    assert.equal(r.code, 0, `${fault}: ${r.err}`);
    const out = JSON.parse(r.out.trim().split('\n').pop()!) as { status: string; output: unknown; resumed: boolean; before: RunEvent[]; after: RunEvent[] };
    assert.equal(out.status, 'completed', fault);
    assert.ok(out.resumed, fault);
    assert.deepEqual(out.output, expected, fault);
    assert.deepEqual(out.after.map((e) => e.seq), out.after.map((_, n) => n + 1), `${fault}: seq has gaps`);
    const committed = committedEffects(out.before);
    const lines = sideLines(runId, embeddedDir);
    for (const [n, id] of EFFECTS.entries()) {
      const runs = lines.filter((l) => l === id).length;
      if (committed.has(`__post__/${[0, 2, 4, 7, 8][n]}`)) assert.equal(runs, 1, `${fault}: committed ${id} ran ${runs} times`);
      else assert.ok(runs >= 1 && runs <= 2, `${fault}: ${id} ran ${runs} times`);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  rmSync(embeddedDir, { recursive: true, force: true });
});
