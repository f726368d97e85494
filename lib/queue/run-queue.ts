/**
 * The queue of runs waiting for a worker, on pg-boss (Postgres, SKIP LOCKED,
 * retries, expiry), in its own schema of the store's database.
 *
 * A job says "drive run X": whoever records a run as `queued` (the app with
 * STAGECRAFT_WORKERS=external, `stagecraft run --queue`) sends one, and a
 * `stagecraft worker` fetches it, drives the run to its end and completes it.
 * Jobs are deduplicated while they wait (policy `short`, keyed by run id);
 * the run itself stays the truth (a job for a finished run completes at once,
 * and the run's claim keeps two drivers apart).
 *
 * The lease: a fetched job is the worker's for LEASE_SECONDS — pg-boss's own
 * expiry, `started_on + expire_in`. A worker moves `started_on` forward every
 * few seconds while it drives the run (`renew`); pg-boss 10 has no heartbeat
 * call, so this one UPDATE of its job table is the only statement outside its
 * API (pinned with the exact version, and tested). A worker that dies stops
 * renewing; pg-boss's maintenance (every MAINTENANCE_SECONDS) puts the
 * expired job back as a retry, and another worker resumes the run — within
 * LEASE_SECONDS + MAINTENANCE_SECONDS + a poll, well under 30 s. A worker
 * stopping (SIGTERM) hands its jobs back at once (`release`).
 *
 * Owns: the pg-boss instance, the queue's options, enqueue / fetch / settle.
 * Does not: drive runs (run-worker.ts) or decide when a run is queued
 * (lib/server/runs).
 */
import type PgBoss from 'pg-boss';

export const RUN_QUEUE = 'stagecraft-runs';
/** pg-boss's tables live in this schema of the store's database */
export const QUEUE_SCHEMA = 'stagecraft_queue';
/** a fetched job's lease: not renewed for this long, it goes back to the queue */
export const LEASE_SECONDS = 15;
/** how often expired leases are looked for (by one process at a time) */
export const MAINTENANCE_SECONDS = 3;
/** a job handed back this many times is given up (a run that keeps killing its workers) */
export const MAX_JOB_RETRIES = 10_000;

export type RunJob = { id: string; runId: string };

export type RunQueueOptions = {
  /** run pg-boss's maintenance here (workers do; an app or a CLI only sending jobs need not) */
  supervise?: boolean;
  /** pool connections (default 3) */
  poolSize?: number;
  /** told of pg-boss's background errors (a lost connection while the database restarts …) */
  onError?: (e: Error) => void;
};

export class RunQueue {
  private constructor(private readonly boss: PgBoss) {}

  /** Starts pg-boss on `url` (creating its schema and the queue the first time). */
  static async open(url: string, opts: RunQueueOptions = {}): Promise<RunQueue> {
    // loaded only where runs go through the queue: in-process runs never load pg-boss
    const { default: PgBossCtor } = await import('pg-boss');
    const boss = new PgBossCtor({
      connectionString: url,
      schema: QUEUE_SCHEMA,
      application_name: 'stagecraft-queue',
      max: opts.poolSize ?? 3,
      supervise: opts.supervise ?? false,
      schedule: false,
      maintenanceIntervalSeconds: MAINTENANCE_SECONDS,
    });
    // an EventEmitter without an 'error' listener would throw: pg-boss reports its background failures here
    boss.on('error', (e: Error) => opts.onError?.(e));
    await boss.start();
    try {
      await ensureQueue(boss);
    } catch (e) {
      // a started pg-boss keeps its pool and timers: the process would never exit
      await boss.stop({ graceful: false, close: true, wait: true }).catch(() => undefined);
      throw e;
    }
    return new RunQueue(boss);
  }

  /** A job to drive `runId` (none added while one for it waits already). */
  async enqueue(runId: string): Promise<void> {
    await this.boss.send(RUN_QUEUE, { runId }, { singletonKey: runId });
  }

  /** Up to `n` jobs, each leased to this process (pg-boss swallows a failed fetch: none then). */
  async fetch(n: number): Promise<RunJob[]> {
    const jobs = await this.boss.fetch<{ runId: string }>(RUN_QUEUE, { batchSize: n });
    return (jobs ?? []).map((j) => ({ id: j.id, runId: j.data.runId }));
  }

  /**
   * Renews the lease of these jobs; answers the ones still this process's (a job missing from the
   * answer expired and went back to the queue: another worker may hold it now).
   */
  async renew(jobIds: readonly string[]): Promise<Set<string>> {
    if (jobIds.length === 0) return new Set();
    const r = (await this.boss.getDb().executeSql(
      `UPDATE ${QUEUE_SCHEMA}.job SET started_on = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active' RETURNING id`,
      [RUN_QUEUE, jobIds],
    )) as { rows: { id: string }[] };
    return new Set(r.rows.map((x) => x.id));
  }

  /** The run reached an end (or cannot be driven at all): the job is done. */
  async complete(jobId: string, output: Record<string, unknown>): Promise<void> {
    await this.boss.complete(RUN_QUEUE, jobId, output);
  }

  /** Hands the job back: another worker fetches it at once. */
  async release(jobId: string, reason: string): Promise<void> {
    await this.boss.fail(RUN_QUEUE, jobId, { released: reason });
  }

  /** Jobs waiting for a worker (created or handed back, not yet fetched). */
  async depth(): Promise<number> {
    return this.boss.getQueueSize(RUN_QUEUE);
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: false, close: true, wait: true });
  }
}

/** Postgres's codes for a lost race between processes creating the queue at once */
const RACE_CODES = new Set(['40P01' /* deadlock */, '23505' /* unique */, '42P07' /* table exists */]);

/**
 * Creates the run queue unless it exists. Several workers starting at once race here: pg-boss's
 * create_queue attaches a partition to its job table, and two of those (or one beside another
 * worker's fetch) can deadlock. The loser looks again (the winner's queue is there then) and tries
 * again, a few times, after a short random pause.
 */
async function ensureQueue(boss: PgBoss): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      if (await boss.getQueue(RUN_QUEUE)) return;
      await boss.createQueue(RUN_QUEUE, {
        name: RUN_QUEUE,
        policy: 'short',
        retryLimit: MAX_JOB_RETRIES,
        retryDelay: 0,
        retryBackoff: false,
        expireInSeconds: LEASE_SECONDS,
      });
      return;
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (attempt >= 8 || typeof code !== 'string' || !RACE_CODES.has(code)) throw e;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 200 * attempt));
    }
  }
}
