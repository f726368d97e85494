// The database restart proof (DBOS restarts Postgres every few seconds under
// its workflows; so do we): a private Postgres server is restarted again and
// again — a clean fast shutdown and a crash (immediate, recovered from the WAL
// on start), in turn — while queued runs of the worker probe are in flight,
// over 1 worker and over 3. Every run completes with the uninterrupted output
// (connections come back, a commit cut off by the restart is sent again or the
// run resumes), an effect committed before a restart never runs again, each
// interruption repeats at most the step in flight, and every log is gap-free.
// Sizes: CHAOS_RUNS runs and CHAOS_RESTARTS restarts per case (npm test: 40 and
// 3; `npm run test:chaos`: 200 and 6).
import { test, before, after } from 'node:test';
import {
  checkProbeRun,
  committedEffects,
  countCompleted,
  openBench,
  queueProbeRuns,
  startWorker,
  waitForRuns,
  type Bench,
  type WorkerProcess,
} from './testing/worker-harness';

const RUNS = Number(process.env.CHAOS_RUNS ?? 40);
const RESTARTS = Number(process.env.CHAOS_RESTARTS ?? 3);
/** between restarts, and how long the server stays down each time */
const EVERY_MS = 1_500;
const DOWN_MS = 750;

let b: Bench;
const workers: WorkerProcess[] = [];
before(async () => {
  b = await openBench('chaos');
});
after(async () => {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  await b?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function chaos(workerCount: number, concurrency: number): Promise<void> {
  const mine = Array.from({ length: workerCount }, () => startWorker(b, concurrency));
  workers.push(...mine);
  await Promise.all(mine.map((w) => w.id()));
  const ids = await queueProbeRuns(b, RUNS);
  const committed = new Map<string, Set<string>>(ids.map((id) => [id, new Set<string>()]));
  let restarts = 0;
  let caughtMidRun = 0;
  while (restarts < RESTARTS && (await countCompleted(b, ids)) < RUNS) {
    await sleep(EVERY_MS);
    // what is committed now must survive the restart and never run again
    for (const id of ids) {
      const events = await b.store.readEvents(id).catch(() => []);
      for (const e of committedEffects(events)) committed.get(id)!.add(e);
    }
    caughtMidRun += await (await b.store.db()).run.count({ where: { id: { in: ids }, status: 'running' } });
    const mode = restarts % 2 === 0 ? 'immediate' : 'fast';
    b.pg.stop(mode);
    await sleep(DOWN_MS);
    b.pg.start();
    restarts++;
  }
  await waitForRuns(b, ids, workers, 300_000);
  let repeats = 0;
  let resumes = 0;
  for (const id of ids) {
    const r = await checkProbeRun(b, id, committed.get(id)!);
    repeats += r.repeats;
    resumes += r.events.filter((e) => e.type === 'run_resumed').length;
  }
  console.log(`chaos: ${workerCount} worker(s) × ${concurrency}, ${RUNS} runs, ${restarts} restarts caught ${caughtMidRun} run(s) mid-way: ${resumes} resume(s), ${repeats} in-flight step(s) repeated`);
  for (const w of mine) w.child.kill('SIGTERM');
  for (const w of mine) await w.exited;
  if (restarts === 0 || caughtMidRun === 0) throw new Error('no restart caught a run mid-way: the test proved nothing (raise CHAOS_RUNS)');
}

test(`1 worker: ${RUNS} runs while Postgres restarts ${RESTARTS} times`, async () => {
  await chaos(1, 8);
});

test(`3 workers: ${RUNS} runs while Postgres restarts ${RESTARTS} times`, async () => {
  await chaos(3, 4);
});
