/**
 * The write path on Postgres: a few dedicated connections ("lanes"), each
 * sending batches of write operations to `stagecraft_apply`
 * (prisma/migrations/*_batched_apply) as one prepared statement.
 *
 * - A run's writes always go to the same lane (chosen by its id), in order.
 * - Group commit across runs: while a lane's statement is in flight, new
 *   operations queue; the next statement carries all of them — one round trip,
 *   one transaction, one WAL flush for every run committing at that moment.
 *   Operations issued in the same tick travel together (a new run's claim with
 *   its creation).
 * - A batch is one transaction, so one failing operation undoes the others:
 *   the lane then lets go of the claims the batch took (session locks outlive a
 *   rollback) and sends its operations again one by one, so each gets its own
 *   answer. A lost connection fails its batch as a whole and leaves the lane;
 *   the next write opens a new one.
 * - Claims are session advisory locks on the run's lane (claims.ts).
 * - Direct writes: a durable unit with events and no traces (an effectful
 *   step's commit, a run's creation, its first commit, its end: wire.ts
 *   directCommit, directCreate) travels as plain SQL with typed parameters, in
 *   the same statement as the batch's other operations (which still go through
 *   `stagecraft_apply`: lazy units, traces, unlocks), and the batch's claims
 *   taken in its main query (wire.ts CLAIMS): no jsonb to parse and no
 *   plpgsql for them. A run's end lets go of its claim in it. The database
 *   refuses what the commit function would not commit; a refused batch is sent
 *   again through the commit function alone, which answers with conflicts or
 *   errors exactly as before.
 *
 * Measured here: a pooled query costs ~0.17–0.21 ms of CPU, a prepared one on
 * a held connection ~0.12 ms, and each statement is a loopback write whose
 * syscall is the top self-time of the write path: batching removes statements.
 *
 * Pipelining was measured and left out: pg's pipeline mode (each statement its
 * own Sync, so its own transaction and answer), two statements in flight, a
 * run's op never behind its own. At 200 runs × 5 steps, c=8, load 4–10:
 * effectful runs move in lockstep (all their commits in one statement, the
 * lane idle while node runs their steps): nothing is ever sent behind another.
 * Pure runs: sending at once took 0.8 → 1.2 statements a run and node's CPU
 * +19%, no faster (5/12 pairs); sending behind only a batch of ≥ 5 ops, wall
 * ×0.87–0.97 (medians of 6 A/B sets, 73/120 pairs won): no clear win. Each
 * extra statement cost node ~0.4 ms of CPU (process.cpuUsage; its writev is
 * the top self-time of a profile), and node's main thread is the other
 * bottleneck: what pipelining saves in the lane's latency, its extra
 * statements spend.
 *
 * Owns: the lanes, their queues and batches. Does not: decide what is written
 * (prisma-store.ts, wire.ts) or what a claim means (claims.ts).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import pg from 'pg';
import { dbErrorOf } from './errors';
import { APPLY_SQL, batchParam, directStatement, opText, opUnlock, prepareJsonRows, type DirectWrite, type OpSource, type Statement, type WireOp } from './wire';
import { batchLength } from './batches';
import { commitLanesFromEnv } from './lanes-setting';

// the batch limits live beside the embedded line's too (batches.ts), which must not load pg
export { batchLength, MAX_BATCH, MAX_BATCH_CHARS } from './batches';

export { commitLanesFromEnv, DEFAULT_COMMIT_LANES } from './lanes-setting';

/**
 * `direct`: the op as plain INSERTs (wire.ts directCommit), sent that way (`op` is then built only if they are refused).
 * `claimKey`: set for a claim only (`op` is opClaim(claimKey)): its lock key, taken in a direct statement's main query.
 */
type Pending = { op: OpSource; chars?: number; claimKey?: string; direct?: DirectWrite | null; runId?: string; resolve: (r: unknown) => void; reject: (e: unknown) => void };

/** the op's JSON text (built once, when a direct write's op is needed after all) */
const opOf = (p: Pending): WireOp => (typeof p.op === 'string' ? p.op : (p.op = opText(p.op)));

const COMMITTED = { kind: 'committed' } as const;

/**
 * A lane's session plans each statement once: its generic plan, made at its first execution and
 * kept (`plan_cache_mode = force_generic_plan`), where Postgres would plan a prepared statement
 * afresh at each of its first five executions before keeping the generic one. A lane's statements
 * come in many shapes (wire.ts: one per set of kinds of rows, per count of events and artifacts of
 * the rows form: 22 in 200 pure runs × 5 steps at c=8 and 23 in effectful ones while each count of
 * runs ending together was a shape too, most executed fewer than six times),
 * and planning one of them costs about as much server CPU as executing it. Their plans do not depend
 * on the values (rows read from parameters, runs found by key): the plan kept is the one the
 * sixth execution would have kept. Measured: the first five runs on a new connection (create,
 * finish, end), server CPU per run 2.73–3.13 → 1.93–2.13 ms (30 connections each, interleaved).
 * A SET after connecting, not a startup option: a pooler in front of the server may refuse those.
 */
const LANE_SESSION_SQL = 'SET plan_cache_mode = force_generic_plan';

export class Lane {
  readonly client: Promise<pg.Client>;
  /** the client once connected: a statement then goes out without awaiting `client` (a microtask per statement) */
  private connected: pg.Client | null = null;
  /** the connection is gone, and with it every claim its session held */
  lost = false;
  /** statements sent (for tests and benchmarks) */
  statements = 0;
  /** operations those statements carried, and the time a statement was in flight, in ms (benchmarks: is the lane the bottleneck?) */
  ops = 0;
  busyMs = 0;
  /** the names of the prepared statements sent (each one a plan its connection made once: benchmarks count them) */
  readonly shapes = new Set<string>();
  private queue: Pending[] = [];
  /** how many operations the last statement carried: more than one, and runs are committing side by side */
  private lastBatch = 0;
  /** the run whose operation the last statement carried alone, if any (`alone`) */
  private lastRun: string | null = null;
  /** the running drain, if any: it sends batches until the queue is empty */
  private draining: Promise<void> | null = null;

  constructor(url: string, onLost: (lane: Lane) => void) {
    const client = new pg.Client({ connectionString: url, application_name: 'stagecraft-commit' });
    const lose = () => {
      this.lost = true;
      onLost(this);
    };
    client.on('error', lose);
    client.on('end', lose);
    // a refused SET leaves the session as it was (custom plans first): the lane works all the same
    this.client = client
      .connect()
      .then(() => client.query(LANE_SESSION_SQL).catch((e: unknown) => (isStatementError(e) ? undefined : Promise.reject(e))))
      .then(() => (this.connected = client));
    this.client.catch(lose);
  }

  /**
   * Queues one operation; its element of the batch's result comes back. `direct`: the same write
   * as plain INSERTs (wire.ts directCommit), sent instead of `op` (which may then be a builder).
   * `runId`: the run it writes (a run committing alone is sent at once: `alone`).
   */
  apply(op: OpSource, claimKey?: string, direct?: DirectWrite | null, runId?: string): Promise<unknown> {
    // its rows in the json form, encoded now rather than when the statement is built (wire.ts prepareJsonRows): a write with
    // moves always goes in that form; one without does too unless its whole batch is without, and while a statement is in
    // flight it will share the next one with what else is queued
    if (direct && (direct.moves || this.draining)) prepareJsonRows(direct);
    return new Promise((resolve, reject) => {
      const p: Pending = { op, chars: direct?.chars, claimKey, direct, runId, resolve, reject };
      if (direct && !direct.moves && runId !== undefined && runId === this.lastRun && !this.draining && this.connected) return void (this.draining = this.alone(p, this.connected));
      this.queue.push(p);
      // started a microtask later, so that what this tick queues goes in the same batch
      this.draining ??= Promise.resolve().then(() => this.drain());
    });
  }

  /**
   * A lone run's commit: a direct write of its events and artifacts (an effectful step's commit) by
   * the run whose write the lane's last statement carried alone, the lane idle since — one run
   * committing step after step, no other writing beside it. Its statement is written now rather
   * than a microtask later (when nothing else is issued in the same tick to join it: any other run's
   * write, or a batch of several, takes the queue), and its answer given from pg's callback rather
   * than through the batch's promises. What is queued meanwhile is drained after it, as after any
   * batch; a refused or lost statement takes the batch's path (afterRefusal).
   */
  private async alone(p: Pending, client: pg.Client): Promise<void> {
    try {
      const statement = directStatement([p.direct!], []);
      this.statements++;
      this.shapes.add(statement.name);
      this.lastBatch = 1;
      this.lastRun = p.runId!;
      const t0 = performance.now();
      const err = await new Promise<Error | null>((settle) => {
        submit(client, statement, (e) => {
          if (e) return settle(e);
          this.ops++;
          this.busyMs += performance.now() - t0;
          p.resolve(COMMITTED);
          settle(null);
        });
      });
      if (err) {
        if (!isStatementError(err)) p.reject(err);
        else await this.afterRefusal([p], err);
      }
    } catch (e) {
      p.reject(e);
    }
    await this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        // The rest of this turn of the event loop: the replies already read (code steps ending, a
        // statement's answer) are handled first, and the commits they make join the batch about to go. A
        // batch starts a microtask after its first operation, and node runs each I/O callback's microtasks
        // before the next callback: without this, when several runs' steps end in one poll, the first
        // one's commit goes alone and the others wait a whole statement behind it. Only once the lane has
        // carried more than one operation at a time (runs committing side by side); a lone run's commit is
        // not delayed. Measured at 200 runs × 5 effectful node steps, c=8 (5 interleaved pairs): statements
        // a run 2.2 → 1.5, Postgres CPU a step 0.23 → 0.19 ms, node's main thread 0.55 → 0.53 ms a step.
        if (this.lastBatch > 1) await nextTurn();
        const batch = this.queue.splice(0, batchLength(this.queue));
        const t0 = performance.now();
        try {
          this.lastBatch = batch.length;
          this.lastRun = batch.length === 1 ? (batch[0].runId ?? null) : null;
          const rows = await this.sendBatch(batch);
          this.ops += batch.length;
          this.busyMs += performance.now() - t0;
          batch.forEach((p, i) => p.resolve(rows[i]));
        } catch (e) {
          if (!isStatementError(e)) for (const p of batch) p.reject(e);
          else await this.afterRefusal(batch, e);
        }
      }
    } finally {
      this.draining = null;
    }
  }

  /**
   * A batch the server refused: nothing of it was written. With direct writes in it, its operations
   * go again through the commit function alone, which answers a recorded seq with a conflict; a
   * batch that fails there too goes one operation at a time, so each gets its own answer.
   */
  private async afterRefusal(batch: Pending[], e: unknown): Promise<void> {
    if (batch.some((p) => p.direct)) {
      try {
        await this.releaseClaims(batch);
        const rows = await this.send(batch.map(opOf));
        batch.forEach((p, i) => p.resolve(rows[i]));
        return;
      } catch (again) {
        if (!isStatementError(again)) {
          for (const p of batch) p.reject(again);
          return;
        }
        e = again;
      }
    }
    if (batch.length > 1) await this.oneByOne(batch);
    else batch[0].reject(e);
  }

  /** the claims a failed batch took are held still (session locks outlive a rollback): let go of them before sending it again */
  private async releaseClaims(batch: Pending[]): Promise<void> {
    const claimed = batch.filter((p) => p.claimKey).map((p) => opUnlock(p.claimKey!));
    if (claimed.length) await this.send(claimed).catch(() => undefined);
  }

  private async oneByOne(batch: Pending[]): Promise<void> {
    await this.releaseClaims(batch);
    for (const p of batch) {
      try {
        p.resolve((await this.send([opOf(p)]))[0]);
      } catch (e) {
        p.reject(e);
      }
    }
  }

  private async send(ops: WireOp[]): Promise<unknown[]> {
    const client = this.connected ?? (await this.client);
    this.statements++;
    this.shapes.add('sc_apply');
    const { rows } = await execute(client, { name: 'sc_apply', text: APPLY_SQL, values: [batchParam(ops)] });
    return (rows[0] as { r: unknown[] }).r;
  }

  /**
   * A batch as one statement: its direct writes as plain INSERTs (wire.ts directStatement), its
   * claims taken in its main query, and its other operations through `stagecraft_apply`, in the
   * same statement and transaction.
   */
  private async sendBatch(batch: Pending[]): Promise<readonly unknown[]> {
    if (!batch.some((p) => p.direct)) return this.send(batch.map(opOf));
    const writes: DirectWrite[] = [];
    const claims: string[] = [];
    const rest: WireOp[] = [];
    for (const p of batch) {
      if (p.direct) writes.push(p.direct);
      else if (p.claimKey !== undefined) claims.push(p.claimKey);
      else rest.push(opOf(p));
    }
    const statement = directStatement(writes, rest, claims);
    const client = this.connected ?? (await this.client);
    this.statements++;
    this.shapes.add(statement.name);
    const { rows } = await execute(client, statement);
    const row = rows[0] as { r: unknown[] | null; c?: boolean[] } | undefined;
    const answers = rest.length ? row!.r! : [];
    const taken = claims.length ? row!.c! : [];
    let k = 0;
    let j = 0;
    // a claim's answer as the commit function gives it
    return batch.map((p) => (p.direct ? COMMITTED : p.claimKey !== undefined ? { claimed: taken[j++] } : answers[k++]));
  }

  async close(): Promise<void> {
    await this.draining;
    const c = await this.client.catch(() => null);
    await c?.end().catch(() => undefined);
  }
}

/**
 * A prepared statement sent as pg's own Query, made from its text (the name set on it after): the
 * same messages on the wire as `client.query({ name, text, values })`, without what that call adds
 * per statement — a copy of the config object (pg's cloneQueryConfig, through property
 * descriptors) and two promises around the callback. Measured on one connection, a prepared
 * two-parameter SELECT, 9 interleaved blocks of 3,000 (3 runs): 64.6–78.6 -> 55.3–72.0 µs of node
 * CPU a statement. An error reaches the caller as before (pg's own, from the server or the
 * connection), its stack the socket's rather than the caller's.
 */
function execute(client: pg.Client, statement: Statement): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => submit(client, statement, (err, res) => (err ? reject(err) : resolve(res as pg.QueryResult))));
}

/** the statement sent as pg's own Query (execute's way), `done` called from pg's callback (a lone run's commit answers there: Lane.alone) */
function submit(client: pg.Client, statement: Statement, done: (err: Error | undefined, res?: unknown) => void): void {
  const query = new pg.Query(statement.text, statement.values, done);
  (query as unknown as { name: string }).name = statement.name;
  client.query(query);
}

/**
 * An error the server raised for the statement, the connection still usable — not a lost
 * connection, nor the server ending the session (SQLSTATE class 08, connection exception, and 57,
 * operator intervention: a shutdown, a terminated backend).
 */
function isStatementError(e: unknown): boolean {
  const db = dbErrorOf(e);
  return db !== null && !/^(08|57)/.test(db.code);
}

/**
 * What the write path sent: statements, the operations they carried, the time they were in flight
 * (ms), and `shapes`: how many distinct prepared statements the lanes' connections planned.
 */
export type WriteStats = { statements: number; ops: number; busyMs: number; shapes: number };

const sum = (lanes: Lane[], f: (l: Lane) => number) => lanes.reduce((n, l) => n + f(l), 0);

export class CommitLanes {
  private readonly lanes: (Lane | null)[];
  private closed = false;

  /** `count`: how many lanes (STAGECRAFT_COMMIT_LANES by default; a bad value throws here, before any connection) */
  constructor(
    private readonly url: string,
    private readonly count = commitLanesFromEnv(process.env),
  ) {
    this.lanes = Array.from({ length: count }, () => null);
  }

  /** The lane of a run (opened on first use, replaced when its connection is lost). */
  laneFor(runId: string): Lane {
    if (this.closed) throw new Error('the store is closed: no more writes');
    let h = 0;
    for (let i = 0; i < runId.length; i++) h = (h * 31 + runId.charCodeAt(i)) | 0;
    return this.lane(Math.abs(h) % this.count);
  }

  /** lane i, opened when it has none (or lost its connection) */
  private lane(i: number): Lane {
    return (this.lanes[i] ??= new Lane(this.url, (lost) => {
      if (this.lanes[i] === lost) this.lanes[i] = null;
    }));
  }

  apply(runId: string, op: OpSource, claimKey?: string, direct?: DirectWrite | null): Promise<unknown> {
    return this.laneFor(runId).apply(op, claimKey, direct, runId);
  }

  /** Statements sent, the operations they carried, the time they were in flight and their shapes, over every lane (benchmarks). */
  stats(): WriteStats {
    const live = this.lanes.filter((l): l is Lane => l !== null);
    return { statements: sum(live, (l) => l.statements), ops: sum(live, (l) => l.ops), busyMs: sum(live, (l) => l.busyMs), shapes: sum(live, (l) => l.shapes.size) };
  }

  /** Opens every lane's connection now (not awaited): the first write or claim then does not wait for it. */
  warm(): void {
    if (this.closed) return;
    for (let i = 0; i < this.count; i++) this.lane(i);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.lanes.map((l) => l?.close()));
  }
}
