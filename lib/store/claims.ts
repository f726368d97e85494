/**
 * Run claims: only the holder of a run's claim drives it.
 *
 * Owns: exclusivity of `claimRun` within a process (a map) and, on Postgres,
 * across processes: a session-level `pg_try_advisory_lock` taken on the run's
 * commit lane and held until `release()` or the commit that ends the run. A
 * process that dies (even by SIGKILL) drops its connections, and the server
 * drops its claims with them. Session locks are re-entrant within one
 * connection, which is why the in-process map is checked first.
 *
 * A connection lost (a database restart) takes its claims with it on the
 * server while this process may still be driving those runs: before the next
 * write of such a run, `ensureHeld` takes its claim again on the new
 * connection, and when another process took it meanwhile, this one stops
 * (its commit answers as a conflict). Between the loss and that write the
 * `(run_id, seq)` key still turns a second driver's commit into a conflict,
 * never a duplicate.
 */
import { hash } from 'node:crypto';
import type { RunClaim } from '../kernel/ports';
import type { CommitLanes, Lane } from './commit-lanes';
import { opClaim, opUnlock } from './wire';
import type { SqlQuery } from './run-reads';

export type ClaimRegistry = {
  claim(runId: string): Promise<RunClaim | null>;
  /** whether this process holds the run's claim (taken, or being taken, and not let go) */
  holds(runId: string): boolean;
  /**
   * The commit about to be sent ends the run: if this process holds its claim, the claim ends
   * with it. Returns the lock key to let go of in the commit's own statement (its `release()`
   * then does nothing), or null when there is nothing to release that way.
   */
  releaseInCommit?(runId: string): string | null;
  /**
   * Before a write of `runId`: when this process held its claim on a connection since lost, take it
   * again. False when another process holds it now (this one must stop driving the run); true
   * otherwise (held, taken again, or never this process's to hold). A plain `true` when nothing
   * needs taking again (every commit asks: no promise for it to wait on then).
   */
  ensureHeld?(runId: string): true | Promise<boolean>;
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

  holds(runId: string): boolean {
    return this.held.has(runId);
  }

  async close() {
    this.held.clear();
  }
}

/**
 * 64-bit advisory-lock key of a run: collisions between two live runs are negligible. The first 8
 * bytes of a SHA-256, read as a signed big-endian integer (its first 16 hex digits): every process
 * takes the same key for a run, whichever version of this function it runs (claims.test.ts pins it).
 * One-shot `hash`, not a Hash object: a run's claim costs ~1 µs of it, not 5–9.
 */
export function claimKey(runId: string): string {
  return BigInt.asIntN(64, BigInt(`0x${hash('sha256', `stagecraft.run-claim:${runId}`, 'hex').slice(0, 16)}`)).toString();
}

/**
 * Claims on Postgres: a session advisory lock on the run's commit lane
 * (commit-lanes.ts), so a new run's claim travels in the same statement as its
 * creation, and the commit that ends a run lets go of it in the same statement.
 */
export class LaneClaims implements ClaimRegistry {
  /** runs claimed in this process: the lane whose session holds each, and its lock key */
  private readonly held = new Map<string, { lane: Lane; key: string }>();
  private closed = false;

  constructor(private readonly lanes: CommitLanes) {}

  async claim(runId: string): Promise<RunClaim | null> {
    if (this.closed) throw new Error('claimRun on a closed store');
    if (this.held.has(runId)) return null;
    const key = claimKey(runId);
    const lane = this.lanes.laneFor(runId);
    const entry: { lane: Lane; key: string } = { lane, key };
    // reserve synchronously: two claims in this process cannot both pass (session locks are re-entrant)
    this.held.set(runId, entry);
    let r: { claimed?: boolean };
    try {
      r = (await lane.apply(opClaim(key), key)) as { claimed?: boolean };
    } catch (e) {
      this.forget(runId, lane);
      throw e;
    }
    if (!r.claimed) {
      this.forget(runId, lane);
      return null;
    }
    return {
      release: async () => {
        if (this.held.get(runId) !== entry) return; // released already, or let go by the commit that ended the run
        // the lane of the moment: ensureHeld moves a claim to a new connection after a lost one
        const current = entry.lane;
        const stillLocked = this.forget(runId, current);
        if (stillLocked && !this.closed) await current.apply(opUnlock(key)).catch(() => undefined);
      },
    };
  }

  holds(runId: string): boolean {
    return !this.closed && this.held.has(runId);
  }

  ensureHeld(runId: string): true | Promise<boolean> {
    const entry = this.held.get(runId);
    if (!entry || !entry.lane.lost) return true;
    return this.takeAgain(runId, entry);
  }

  /** a claim whose lane lost its connection, taken again on the run's lane of the moment */
  private async takeAgain(runId: string, entry: { lane: Lane; key: string }): Promise<boolean> {
    const lane = this.lanes.laneFor(runId);
    const r = (await lane.apply(opClaim(entry.key), entry.key)) as { claimed?: boolean };
    if (this.held.get(runId) !== entry) {
      // released meanwhile: nothing of ours to hold, and nothing to keep
      if (r.claimed) void lane.apply(opUnlock(entry.key)).catch(() => undefined);
      return true;
    }
    if (!r.claimed) {
      this.held.delete(runId);
      return false;
    }
    entry.lane = lane;
    return true;
  }

  releaseInCommit(runId: string): string | null {
    const held = this.held.get(runId);
    return held && this.forget(runId, held.lane) ? held.key : null;
  }

  async close() {
    this.closed = true;
    this.held.clear();
  }

  /** drops the claim from the books; true if its lane's session still holds the lock */
  private forget(runId: string, lane: Lane): boolean {
    this.held.delete(runId);
    return !lane.lost;
  }
}

/**
 * Whether any session of the database holds `runId`'s claim now (some process drives it), read from
 * `pg_locks` — never by taking the claim, which would keep its driver from taking it at that moment. A
 * bigint advisory key is listed split: its high 32 bits in `classid`, its low in `objid`, `objsubid` 1.
 */
export async function isClaimHeldAnywhere(sql: SqlQuery, runId: string): Promise<boolean> {
  const key = BigInt.asUintN(64, BigInt(claimKey(runId)));
  const rows = await sql(
    `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 1 LIMIT 1`,
    [String(key >> 32n), String(key & 0xffffffffn)],
  );
  return rows.length > 0;
}
