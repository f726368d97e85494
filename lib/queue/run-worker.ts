/**
 * The loop of a `stagecraft worker`: take queued runs (up to `concurrency` at
 * once) and drive each to its end, holding its job's lease while it does.
 *
 * - Lease: every RENEW_MS the worker renews the lease of every job it holds
 *   (one statement) and says it is alive (workers table). A job whose lease
 *   could not be renewed for longer than the lease — the database away too
 *   long, or the job expired and went back to the queue — is let go: its run
 *   stops before its next step (deps.signal), and the job is never settled by
 *   this worker, since another may hold it now. The run's claim still keeps
 *   two drivers apart at the database (claims.ts).
 * - A database restart: a drive that stops on an unreachable store is driven
 *   again (resumed) once it is back, under the same job; fetching waits.
 * - `stop()` (SIGTERM): no more jobs; each run finishes the step in flight,
 *   stops, and its job goes back to the queue for the other workers.
 *
 * Owns: the job lifecycle in one process. Does not: know what a run is (the
 * `drive` function it is handed does: lib/server/runs/drive-run.ts).
 */
import type { JsonObject } from '../kernel/json';
import { errorToJson } from '../kernel/errors';
import { isConnectionError } from '../store/connection-errors';
import { LEASE_SECONDS, type RunJob, type RunQueue } from './run-queue';
import type { WorkerRegistry } from './worker-registry';

/** how often leases are renewed and the worker says it is alive */
export const RENEW_MS = 3_000;
/** how often an idle worker looks for jobs */
export const POLL_MS = 250;

export type DriveOutcome = { status: string };
export type DriveFn = (runId: string, opts: { driver: JsonObject; signal: AbortSignal }) => Promise<DriveOutcome>;

export type RunWorkerOptions = {
  concurrency: number;
  /** one line per thing worth saying (a run's end, a lease lost, the store away) */
  log: (line: string) => void;
  pollMs?: number;
  renewMs?: number;
  leaseMs?: number;
  /** queued runs whose job may have been lost are sent again this often (default 30 s) */
  sweepMs?: number;
  sweepQueued?: () => Promise<string[]>;
};

type Held = { job: RunJob; ac: AbortController; lastRenewed: number; isLeaseLost: boolean; isSettling: boolean; done: Promise<void> };

/** errors after which a run is driven again once the store is back, rather than given up */
function isTransient(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'store_unreachable' || code === 'store_write_failed' || isConnectionError(e);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class RunWorker {
  private readonly held = new Map<string, Held>();
  private isStopping = false;
  private wake: (() => void) | null = null;
  /** runs driven to an end by this worker (for its log and tests) */
  finished = 0;

  constructor(
    private readonly queue: RunQueue,
    private readonly registry: WorkerRegistry,
    private readonly drive: DriveFn,
    private readonly opts: RunWorkerOptions,
  ) {}

  get id(): string {
    return this.registry.info.id;
  }

  get activeRuns(): number {
    return this.held.size;
  }

  private get driver(): JsonObject {
    const { id, host, pid } = this.registry.info;
    return { kind: 'worker', worker: id, host, pid };
  }

  /** Runs until `stop()` and every run it holds has stopped. */
  async run(): Promise<void> {
    const renewMs = this.opts.renewMs ?? RENEW_MS;
    await this.retrying('register', () => this.registry.beat(0));
    const ticker = setInterval(() => void this.tick(), renewMs);
    const sweeper = this.opts.sweepQueued ? setInterval(() => void this.sweep(), this.opts.sweepMs ?? 30_000) : null;
    void this.sweep();
    try {
      while (!this.isStopping) {
        const free = this.opts.concurrency - this.held.size;
        if (free > 0) {
          let jobs: RunJob[] = [];
          try {
            jobs = await this.queue.fetch(free);
          } catch (e) {
            this.say('fetching jobs', e);
          }
          if (this.isStopping) {
            // stopped while fetching: these were never started, so they go straight back
            for (const j of jobs) await this.queue.release(j.id, 'the worker stopped').catch(() => undefined);
            break;
          }
          for (const job of jobs) this.start(job);
          if (jobs.length === free) continue;
        }
        await this.idle(this.opts.pollMs ?? POLL_MS);
      }
      await Promise.allSettled([...this.held.values()].map((h) => h.done));
    } finally {
      clearInterval(ticker);
      if (sweeper) clearInterval(sweeper);
    }
    await this.registry.stopped().catch(() => undefined);
  }

  /** Stop taking jobs; every run stops after its step in flight and its job goes back to the queue. */
  stop(reason = 'the worker is stopping'): void {
    if (this.isStopping) return;
    this.isStopping = true;
    for (const h of this.held.values()) h.ac.abort(new Error(reason));
    this.wake?.();
  }

  private start(job: RunJob): void {
    const h: Held = { job, ac: new AbortController(), lastRenewed: Date.now(), isLeaseLost: false, isSettling: false, done: Promise.resolve() };
    this.held.set(job.id, h);
    h.done = this.driveJob(h).finally(() => {
      this.held.delete(job.id);
      this.wake?.();
    });
  }

  private async driveJob(h: Held): Promise<void> {
    const { job } = h;
    for (let attempt = 1; ; attempt++) {
      try {
        const o = await this.drive(job.runId, { driver: this.driver, signal: h.ac.signal });
        if (o.status === 'released') return await this.settle(h, () => this.queue.release(job.id, 'the worker stopped'));
        if (o.status !== 'superseded') this.finished++;
        this.opts.log(`run ${job.runId}: ${o.status}`);
        return await this.settle(h, () => this.queue.complete(job.id, { status: o.status }));
      } catch (e) {
        if (h.ac.signal.aborted) return await this.settle(h, () => this.queue.release(job.id, 'the worker stopped'));
        if (isTransient(e)) {
          if (attempt === 1) this.say(`run ${job.runId} waits for the store`, e);
          await sleep(Math.min(250 * attempt, 2_000));
          continue;
        }
        // the run cannot be driven here at all (its skill changed under it, its model is gone …)
        this.opts.log(`run ${job.runId}: not driven: ${(e as Error).message}`);
        return await this.settle(h, () => this.queue.complete(job.id, { error: errorToJson(e) }));
      }
    }
  }

  /** Settles a job only while its lease is still ours (renewed just before): never another worker's. */
  private async settle(h: Held, fn: () => Promise<void>): Promise<void> {
    for (let attempt = 1; !h.isLeaseLost; attempt++) {
      try {
        const mine = await this.queue.renew([h.job.id]);
        if (!mine.has(h.job.id)) return this.loseLease(h, 'its job went back to the queue');
        h.isSettling = true;
        return await fn();
      } catch (e) {
        if (Date.now() - h.lastRenewed > this.leaseMs()) return this.loseLease(h, 'the store was away longer than the lease');
        if (attempt === 1) this.say(`settling the job of run ${h.job.runId}`, e);
        await sleep(Math.min(250 * attempt, 2_000));
      }
    }
  }

  private leaseMs(): number {
    // a margin below the queue's expiry: this worker lets go before anyone else may take over
    return this.opts.leaseMs ?? LEASE_SECONDS * 1000 - 2 * (this.opts.renewMs ?? RENEW_MS);
  }

  private loseLease(h: Held, why: string): void {
    if (h.isLeaseLost) return;
    h.isLeaseLost = true;
    this.opts.log(`run ${h.job.runId}: lease lost (${why}); this worker lets it go`);
    h.ac.abort(new Error(`the worker lost its lease: ${why}`));
  }

  private async tick(): Promise<void> {
    // a job being settled is renewed by settle itself (and may be completed before this renewal runs)
    const asked = [...this.held.values()].filter((h) => !h.isLeaseLost && !h.isSettling);
    try {
      const mine = await this.queue.renew(asked.map((h) => h.job.id));
      const now = Date.now();
      for (const h of asked) {
        if (mine.has(h.job.id)) h.lastRenewed = now;
        else if (this.held.get(h.job.id) === h && !h.isSettling) this.loseLease(h, 'its job went back to the queue');
      }
    } catch (e) {
      this.say('renewing leases', e);
      for (const h of asked) if (Date.now() - h.lastRenewed > this.leaseMs()) this.loseLease(h, 'the store was away longer than the lease');
    }
    await this.registry.beat(this.held.size).catch(() => undefined);
  }

  private async sweep(): Promise<void> {
    if (!this.opts.sweepQueued || this.isStopping) return;
    try {
      for (const runId of await this.opts.sweepQueued()) await this.queue.enqueue(runId);
    } catch (e) {
      this.say('looking for queued runs', e);
    }
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  private async retrying(what: string, fn: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (e) {
        if (this.isStopping) throw e;
        if (attempt === 1) this.say(what, e);
        await sleep(Math.min(250 * attempt, 2_000));
      }
    }
  }

  /** one line for a failure, at most once per kind every 10 s (a restart must not flood the log) */
  private said = new Map<string, number>();
  private say(what: string, e: unknown): void {
    const now = Date.now();
    if ((this.said.get(what) ?? 0) > now - 10_000) return;
    this.said.set(what, now);
    this.opts.log(`${what}: ${(e as Error)?.message?.split('\n').filter(Boolean).pop() ?? String(e)}`);
  }
}
