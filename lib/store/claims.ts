/**
 * Run claims: only the holder of a run's claim drives it.
 *
 * Owns: exclusivity of `claimRun` within a process (a set) and, on Postgres,
 * across processes: a session-level `pg_try_advisory_lock` taken on one
 * dedicated connection per store and held until `release()`. A process that
 * dies (even by SIGKILL) drops its connection, and the server drops its claims
 * with it. Session locks are re-entrant within one connection, which is why the
 * in-process set is checked first.
 *
 * Does not: fence a holder whose connection was lost (its claims are gone on
 * the server while it may still be driving): the `(run_id, seq)` key still
 * turns a second driver's commit into a conflict, never a duplicate.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { RunClaim } from '../kernel/ports';

export type ClaimRegistry = {
  claim(runId: string): Promise<RunClaim | null>;
  /** releases every claim this registry holds */
  close(): Promise<void>;
};

/** For the embedded store: the data-dir lock makes this process the only one. */
export class LocalClaims implements ClaimRegistry {
  private readonly held = new Set<string>();

  async claim(runId: string): Promise<RunClaim | null> {
    if (this.held.has(runId)) return null;
    this.held.add(runId);
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.held.delete(runId);
      },
    };
  }

  async close() {
    this.held.clear();
  }
}

/** 64-bit advisory-lock key of a run: collisions between two live runs are negligible. */
export function claimKey(runId: string): string {
  const h = createHash('sha256').update(`stagecraft.run-claim:${runId}`).digest();
  return h.readBigInt64BE(0).toString();
}

export class PgAdvisoryClaims implements ClaimRegistry {
  private readonly held = new Set<string>();
  private conn: Promise<pg.Client> | null = null;
  /** bumped when the connection is lost: releases from an older connection must not unlock anything */
  private generation = 0;
  private closed = false;

  /** one query at a time on the claims connection (pg deprecates overlapping queries on one client) */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly connectionString: string) {}

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  async claim(runId: string): Promise<RunClaim | null> {
    if (this.closed) throw new Error('claimRun on a closed store');
    if (this.held.has(runId)) return null;
    this.held.add(runId); // reserve synchronously: two claims in this process cannot both pass
    const key = claimKey(runId);
    let gen: number;
    try {
      const client = await this.connection();
      gen = this.generation;
      const { rows } = await this.serial(() => client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [key]));
      if (!rows[0].ok) {
        this.held.delete(runId);
        return null;
      }
    } catch (e) {
      this.held.delete(runId);
      throw e;
    }
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.held.delete(runId);
        if (gen !== this.generation || !this.conn || this.closed) return;
        const client = await this.conn;
        await this.serial(() => client.query('SELECT pg_advisory_unlock($1::bigint)', [key])).catch(() => {});
      },
    };
  }

  async close() {
    this.closed = true;
    this.held.clear();
    const c = this.conn;
    this.conn = null;
    if (c) await (await c.catch(() => null))?.end().catch(() => {});
  }

  private connection(): Promise<pg.Client> {
    if (this.conn) return this.conn;
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'stagecraft-claims' });
    const lost = () => {
      // the server has dropped this session's locks: start afresh on the next claim
      if (this.conn === opening) {
        this.conn = null;
        this.generation++;
      }
    };
    client.on('error', lost);
    client.on('end', lost);
    const opening = client.connect().then(() => client);
    opening.catch(lost);
    this.conn = opening;
    return opening;
  }
}
