// The kill proof: 3 `stagecraft worker` processes drive KILL_RUNS queued runs of the
// worker probe; one worker is SIGKILLed a third of the way, another two thirds
// of the way (each replaced, so three keep working). Every run completes with
// the uninterrupted output; an effect committed before a kill never runs again;
// each interruption repeats at most the step in flight; logs are gap-free; no
// two processes ever run steps of one run at the same time; and the killed
// worker's runs are taken up by another within 30 s (its lease, 15 s, expires
// and the queue hands them out again). On a private Postgres server of its
// own. KILL_RUNS sets the number of runs (default 60; `npm run test:kill` runs 100).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkProbeRun,
  committedEffects,
  countCompleted,
  driversOf,
  holdersOf,
  openBench,
  queueProbeRuns,
  startWorker,
  waitFor,
  waitForRuns,
  type Bench,
  type WorkerProcess,
} from './testing/worker-harness';
import { QUEUE_SCHEMA, RUN_QUEUE } from './run-queue';

const RUNS = Number(process.env.KILL_RUNS ?? 60);
const CONCURRENCY = 4;
/** the contract: a dead worker's runs are resumed by another within this */
const TAKEOVER_MS = 30_000;

let b: Bench;
const workers: WorkerProcess[] = [];
before(async () => {
  b = await openBench('kill');
});
after(async () => {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  await b?.close();
});

type Kill = { worker: string; at: number; committed: Map<string, Set<string>>; running: string[] };

test(`3 workers, ${RUNS} runs, a worker SIGKILLed twice: every run completes, committed effects never run again`, async () => {
  for (let i = 0; i < 3; i++) workers.push(startWorker(b, CONCURRENCY));
  await Promise.all(workers.map((w) => w.id()));
  const ids = await queueProbeRuns(b, RUNS);
  const kills: Kill[] = [];
  for (const fraction of [1 / 3, 2 / 3]) {
    await waitFor(`${Math.round(fraction * 100)}% of the runs`, async () => (await countCompleted(b, ids)) >= Math.floor(RUNS * fraction), 240_000);
    // the victim: the live worker in the middle of the most runs right now
    const live = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
    const liveIds = await Promise.all(live.map((w) => w.id()));
    const holding = new Map<string, number>();
    for (const w of (await holdersOf(b, ids)).values()) holding.set(w, (holding.get(w) ?? 0) + 1);
    const pick = liveIds.reduce((best, id, i) => ((holding.get(id) ?? 0) > (holding.get(liveIds[best]) ?? 0) ? i : best), 0);
    const victim = live[pick];
    const victimId = liveIds[pick];
    victim.child.kill('SIGKILL');
    const at = Date.now();
    await victim.exited;
    // what the store holds right after the kill: effects committed then must never run again
    const committed = new Map<string, Set<string>>();
    const held = await holdersOf(b, ids);
    const running = ids.filter((id) => held.get(id) === victimId);
    for (const id of held.keys()) committed.set(id, committedEffects(await b.store.readEvents(id)));
    kills.push({ worker: victimId, at, committed, running });
    workers.push(startWorker(b, CONCURRENCY));
  }
  await waitForRuns(b, ids, workers, 300_000);

  let repeats = 0;
  let slowest = 0;
  for (const id of ids) {
    const committed = new Set<string>();
    for (const k of kills) for (const e of k.committed.get(id) ?? []) committed.add(e);
    const r = await checkProbeRun(b, id, committed);
    repeats += r.repeats;
    for (const k of kills) {
      if (!k.running.includes(id)) continue;
      // taken up by another worker, within the contract's time
      const next = driversOf(r.events).find((d) => d.at >= k.at && d.worker !== k.worker);
      assert.ok(next, `${id}: nobody took the run over from the killed worker ${k.worker}`);
      assert.ok(next.at - k.at < TAKEOVER_MS, `${id}: taken over ${next.at - k.at} ms after the kill`);
      slowest = Math.max(slowest, next.at - k.at);
    }
  }
  const takenOver = kills.reduce((n, k) => n + k.running.length, 0);
  assert.ok(takenOver >= 2, `the kills landed mid-run on only ${takenOver} run(s): the test proves too little`);
  console.log(`kill proof: ${RUNS} runs, ${kills.length} workers killed holding ${kills.map((k) => k.running.length).join(' + ')} run(s), ${repeats} in-flight step(s) repeated, the slowest taken over ${slowest} ms after its worker died`);

  // the survivors stop cleanly on SIGTERM
  const live = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
  // each up first: the last replacement may still be starting when the others have finished every run,
  // and a process still loading has no SIGTERM handler yet (it would die of the signal, exit code null)
  await Promise.all(live.map((w) => w.id()));
  for (const w of live) w.child.kill('SIGTERM');
  for (const w of live) assert.equal((await w.exited).code, 0, w.output());
});

test('SIGTERM: the worker finishes the step in flight, hands its runs back and exits 0; another worker takes them up at once', async () => {
  const a = startWorker(b, CONCURRENCY);
  const other = startWorker(b, CONCURRENCY);
  workers.push(a, other);
  const aId = await a.id();
  await other.id();
  const ids = await queueProbeRuns(b, 12);
  // wait until the worker to stop is in the middle of a run, with steps still to go after the one in
  // flight (on a loaded machine the look around takes a while: a run about to end would be gone by then)
  const holding = async () => {
    for (const id of ids) {
      const run = await b.store.getRun(id);
      if (run?.status !== 'running') continue;
      const events = await b.store.readEvents(id).catch(() => []);
      const done = committedEffects(events).size;
      if (driversOf(events).at(-1)?.worker === aId && done >= 1 && done <= 2) return true;
    }
    return false;
  };
  await waitFor('the worker to be in the middle of runs', holding, 120_000, 50);
  const at = Date.now();
  a.child.kill('SIGTERM');
  const exit = await a.exited;
  assert.equal(exit.code, 0, a.output());
  assert.match(a.output(), /SIGTERM: finishing the steps in flight, handing \d+ runs? back to the queue/);
  // handed back, not left to expire — read from the queue's record as the worker exits, not from how
  // soon the other worker (on a loaded machine, seconds late) fetches it: a job released (`fail`)
  // waits as `retry` with the reason, or was fetched again (retry_count ≥ 1); a job abandoned stays
  // `active` with retry_count 0 until its lease (15 s) runs out
  const stillA = [...(await holdersOf(b, ids)).entries()].filter(([, w]) => w === aId).map(([id]) => id);
  const jobs = await (await b.store.db()).$queryRawUnsafe<{ run_id: string; state: string; retry_count: number; released: string | null }[]>(
    `SELECT data->>'runId' AS run_id, state::text AS state, retry_count, output->>'released' AS released
       FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND data->>'runId' = ANY($2::text[])`,
    RUN_QUEUE,
    stillA,
  );
  for (const id of stillA) {
    const job = jobs.find((j) => j.run_id === id);
    assert.ok(job, `${id}: no queue job`);
    const handed = (job.state === 'retry' && job.released !== null) || (job.state !== 'active' && job.state !== 'retry') || job.retry_count >= 1;
    assert.ok(handed, `${id}: its job was left ${job.state} (retry ${job.retry_count}) when the worker exited: not handed back`);
  }
  await waitFor('every run to complete', async () => (await countCompleted(b, ids)) === ids.length, 120_000, 250);
  let handedBack = 0;
  for (const id of ids) {
    const r = await checkProbeRun(b, id, new Set());
    // the step in flight finished and was committed before the worker let go: nothing ran twice
    assert.equal(r.repeats, 0, `${id}: a step ran again after a clean stop`);
    const drivers = driversOf(r.events);
    const handed = drivers.findIndex((d) => d.worker === aId && d.at < at);
    if (handed >= 0 && drivers[handed + 1]) {
      handedBack++;
      // taken up by another worker within the contract's time (that it was handed back, not left to
      // expire, is read from the queue's record above)
      assert.ok(drivers[handed + 1].at - at < TAKEOVER_MS, `${id}: taken up ${drivers[handed + 1].at - at} ms after SIGTERM`);
      assert.notEqual(drivers[handed + 1].worker, aId);
    }
  }
  assert.ok(handedBack >= 1, 'no run was handed back: the SIGTERM landed between runs');
  other.child.kill('SIGTERM');
  assert.equal((await other.exited).code, 0, other.output());
});
