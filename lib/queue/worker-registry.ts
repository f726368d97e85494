/**
 * The `workers` table: each `stagecraft worker` says it is alive every few
 * seconds (with how many runs it drives), and that it stopped when it exits
 * cleanly. Times are the database's (`now()`), so workers on machines whose
 * clocks disagree are still compared fairly. Plain SQL on the store's own driver
 * (PrismaStore.sql): a worker drives runs, which never need Prisma's client, and
 * its registry must not load it either.
 *
 * Owns: those rows. Does not: decide who drives a run (the queue's lease and
 * the run's claim do); a row that stops being renewed is only what the health
 * route shows, never a reason to take a run away.
 */
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { SqlQuery } from '../store/run-reads';

export type WorkerInfo = { id: string; host: string; pid: number; concurrency: number };

export type WorkerSeen = WorkerInfo & { activeRuns: number; startedAt: number; seenAt: number; stoppedAt: number | null };

/** how far back the health route looks */
export const WORKERS_SEEN_WITHIN_MS = 60_000;

/** A worker's identity: its host and pid (what an operator looks for) and a random tail (pids repeat). */
export function newWorkerInfo(concurrency: number): WorkerInfo {
  const host = os.hostname();
  return { id: `${host}-${process.pid}-${randomBytes(3).toString('hex')}`, host, pid: process.pid, concurrency };
}

export class WorkerRegistry {
  constructor(
    private readonly sql: SqlQuery,
    readonly info: WorkerInfo,
  ) {}

  /** Registers the worker, or says it is still here, driving `activeRuns` runs. */
  async beat(activeRuns: number): Promise<void> {
    const { id, host, pid, concurrency } = this.info;
    await this.sql(
      `INSERT INTO "workers" ("id", "host", "pid", "concurrency", "active_runs", "started_at", "seen_at")
       VALUES ($1, $2, $3, $4, $5, now(), now())
       ON CONFLICT ("id") DO UPDATE SET "seen_at" = now(), "active_runs" = EXCLUDED."active_runs"`,
      [id, host, pid, concurrency, activeRuns],
    );
  }

  async stopped(): Promise<void> {
    await this.sql('UPDATE "workers" SET "stopped_at" = now(), "seen_at" = now(), "active_runs" = 0 WHERE "id" = $1', [this.info.id]);
  }
}

type Row = { id: string; host: string; pid: number; concurrency: number; active_runs: number; started_at: Date; seen_at: Date; stopped_at: Date | null };

/** Workers seen within `withinMs` (default: the last minute), the most recently seen first. */
export async function listWorkersSeen(sql: SqlQuery, withinMs = WORKERS_SEEN_WITHIN_MS): Promise<WorkerSeen[]> {
  const rows = (await sql(
    `SELECT "id", "host", "pid", "concurrency", "active_runs", "started_at", "seen_at", "stopped_at" FROM "workers"
      WHERE "seen_at" > now() - make_interval(secs => $1::float8)
      ORDER BY "seen_at" DESC`,
    [withinMs / 1000],
  )) as Row[];
  return rows.map((r) => ({
    id: r.id,
    host: r.host,
    pid: r.pid,
    concurrency: r.concurrency,
    activeRuns: r.active_runs,
    startedAt: r.started_at.getTime(),
    seenAt: r.seen_at.getTime(),
    stoppedAt: r.stopped_at ? r.stopped_at.getTime() : null,
  }));
}
