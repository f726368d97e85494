/**
 * `stagecraft worker [--concurrency N]`: takes queued runs from the run queue
 * in the store's Postgres database and drives them, up to N at once, until
 * SIGTERM or SIGINT — then each run finishes its step in flight, is handed
 * back to the queue for the other workers, and the worker exits 0.
 */
import { UsageError } from '../lib/kernel/errors';
import { plural } from '../lib/kernel/plural';
import { forTerminal } from '../lib/kernel/terminal-text';
import { RunQueue } from '../lib/queue/run-queue';
import { RunWorker } from '../lib/queue/run-worker';
import { WorkerRegistry, newWorkerInfo } from '../lib/queue/worker-registry';
import { driveRun, queuedRunsToResend } from '../lib/server/runs/drive-run';
import { databaseUrlOf } from '../lib/server/runs/run-source';
import { checkRunSettings } from '../lib/server/run-settings';
import type { OpenedStore } from '../lib/store';
import { parse } from './args';
import { withHost } from './store';
import type { EarlyStop, Io } from './main';

/** `store_locked` beside the app that holds the embedded store: why a worker cannot go through it */
const WORKER_BESIDE_THE_APP = 'a worker takes runs from the queue of a Postgres store (DATABASE_URL), and the embedded store is the app\'s, which drives its own runs.';

/** runs driven at once by one worker unless --concurrency says otherwise */
export const DEFAULT_WORKER_CONCURRENCY = 4;
export const MAX_WORKER_CONCURRENCY = 256;

export async function workerCommand(argv: string[], io: Io, earlyStop?: EarlyStop): Promise<number> {
  const { values } = parse(argv, { concurrency: { type: 'string' } }, { min: 0, max: 0, names: 'no arguments' });
  const concurrency = values.concurrency === undefined ? DEFAULT_WORKER_CONCURRENCY : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_WORKER_CONCURRENCY) {
    throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_WORKER_CONCURRENCY}, not ${JSON.stringify(values.concurrency)}`);
  }
  // before the store and the queue: a worker whose runs would all fail on a setting must not take their jobs
  checkRunSettings(process.env, 'worker');
  // SIGTERM/SIGINT while starting (opening the store, migrating it, joining the queue): no run is held
  // yet, so the worker leaves at once and says so, exit 0 as for any stop — not killed by the signal
  // (exit code none), which a supervisor scaling down a worker that just started would read as a crash
  const onSignalWhileStarting = (signal: NodeJS.Signals) => {
    io.err(`stagecraft worker: ${signal} while starting: no run taken, exiting`);
    process.exit(0);
  };
  process.on('SIGTERM', onSignalWhileStarting);
  process.on('SIGINT', onSignalWhileStarting);
  // a stop that came while node was still loading this command (bin/stagecraft.mjs held it): the same
  // answer. Taken once ours are on, so there is no moment when the signal would kill the process.
  const early = earlyStop?.take();
  if (early) {
    process.off('SIGTERM', onSignalWhileStarting);
    process.off('SIGINT', onSignalWhileStarting);
    io.err(`stagecraft worker: ${early} while loading: no run taken, exiting`);
    return 0;
  }
  return withHost(async (host) => {
    const url = databaseUrlOf(host);
    // its registry is plain SQL on the store's own pool (a Postgres store opened here always has one):
    // a worker never loads Prisma's client, its runs' reads and writes being plain SQL too
    const sql = (host.store as OpenedStore).sql;
    if (!url || !sql) {
      throw new UsageError('stagecraft worker needs a Postgres store: set DATABASE_URL (the embedded store belongs to one process, which drives its own runs).');
    }
    // STAGECRAFT_SANDBOX=required where bubblewrap cannot isolate: every run would fail on it, so the worker
    // says so now (SandboxUnavailableError), before it joins the queue and takes their jobs
    host.isolation();
    // a log file is read on a terminal later: a run's own text in a line (an error it stopped on) is shown, never obeyed
    const log = (line: string) => io.err(forTerminal(`stagecraft worker: ${line}`));
    const queue = await RunQueue.open(url, { supervise: true, onError: (e) => log(`queue: ${e.message}`) });
    const registry = new WorkerRegistry(sql, newWorkerInfo(concurrency));
    const worker = new RunWorker(queue, registry, (runId, opts) => driveRun(host, runId, opts), {
      concurrency,
      log,
      sweepQueued: () => queuedRunsToResend(host),
    });
    const onSignal = (signal: NodeJS.Signals) => {
      log(`${signal}: finishing the steps in flight, handing ${plural(worker.activeRuns, 'run')} back to the queue`);
      worker.stop(`the worker got ${signal}`);
    };
    process.off('SIGTERM', onSignalWhileStarting);
    process.off('SIGINT', onSignalWhileStarting);
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    log(`${registry.info.id} drives up to ${plural(concurrency, 'run')} at once from ${(host.store as OpenedStore).location}`);
    try {
      await worker.run();
    } finally {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      await queue.close().catch(() => undefined);
    }
    log(`${registry.info.id} stopped (${plural(worker.finished, 'run')} driven to an end)`);
    return 0;
  }, { runsCode: true, notThroughApp: { command: 'worker', why: WORKER_BESIDE_THE_APP } }).finally(() => {
    process.off('SIGTERM', onSignalWhileStarting);
    process.off('SIGINT', onSignalWhileStarting);
  });
}
