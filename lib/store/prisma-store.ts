/**
 * The kernel's StorePort on Prisma, over Postgres (adapter-pg) or an embedded
 * PGlite: the same schema, the same SQL, the same behaviour as MemoryStore
 * (store-contract.ts holds both to one suite).
 *
 * Owns: the write path — each `createRun` and `commit` is one operation of
 * `stagecraft_apply` (prisma/migrations/*_batched_apply, fed as JSON, see
 * wire.ts), so events, traces, the snapshot move, artifacts and the run patch
 * land in one transaction or not at all; a recorded seq comes back as
 * `conflict` with what is recorded. On Postgres the operations of runs that
 * write at the same moment share a statement (commit-lanes.ts), and most travel
 * as plain SQL instead, which the database judges by the same rules (wire.ts
 * directCommit, directCreate). The reads a
 * run or a resume makes are plain SQL (run-reads.ts), and so are a worker's sweep for queued
 * runs (listRuns by status) and recording a skill version (skills.ts); the others go through
 * Prisma's query builder, whose client is made on first use (`db()`; the embedded store imports its modules
 * then too), so a process that only drives runs never loads its engine. `skills` is the skill-version repository (skills.ts).
 *
 * Does not: open databases, migrate, or lock data dirs (open-store.ts); decide
 * anything about runs (the kernel does). Reading an unknown run's events,
 * traces, memo or artifacts throws RunNotFoundError, as MemoryStore throws.
 */
import type {
  AbortRequest,
  CommitResult,
  CommitUnit,
  MemoEntry,
  RunClaim,
  RunEvent,
  RunFilter,
  RunRecord,
  RunStatus,
  Snapshot,
  StageTrace,
  StorePort,
  WorkspaceArtifact,
} from '../kernel/ports';
import { RunNotFoundError } from '../kernel/errors';
import { memoEntryOf } from '../kernel/memo';
import { EVENT } from '../kernel/events';
import { AppendListeners } from '../kernel/append-listeners';
import type { PrismaClient } from './generated/prisma/client';
import type { ClaimRegistry } from './claims';
import { isEventKeyRace, storeErrorOf, UnsupportedValueError } from './errors';
import { isConnectionError, reachable, unreachableError } from './connection-errors';
import { toAbortRequest, toArtifact, toRunEvent, toRunRecord, toSnapshot, toStageTrace } from './records';
import { PrismaSkillRepo, type SkillRepo } from './skills';
import { PrismaRunIndex, type RunIndex } from './run-index';
import { directCreate, opCreate, opUnlock, type DirectWrite, type OpSource } from './wire';
import { carriesMuch, commitRoute } from './commit-route';
import { AbortPoll } from './abort-poll';
import type { WriteStats } from './commit-lanes';
import { RunReads, type SqlQuery } from './run-reads';

export type StoreBackend = 'postgres' | 'pglite';

export type PrismaStoreParts = {
  /**
   * How to make Prisma's client, called once, on first use (`db()`): a process that only drives
   * runs never needs it, and the embedded store imports its modules then too (a `run` never loads
   * Prisma's client or its adapter).
   */
  makeClient: () => PrismaClient | Promise<PrismaClient>;
  claims: ClaimRegistry;
  backend: StoreBackend;
  /** where the data is: a URL without its password, or the embedded data dir */
  location: string;
  /** releases what opening took (PGlite, the data-dir lock); runs after Prisma disconnects */
  onClose?: () => Promise<void>;
  /**
   * The hot path: one write operation (wire.ts) applied by `stagecraft_apply`, on the commit
   * lanes (Postgres, commit-lanes.ts: batched with the other runs' writes of the moment) or on
   * the embedded database directly. Not through Prisma: its raw-query layer adds ~0.35 ms of CPU
   * to every call (measured: 0.84 ms per commit through $queryRaw vs 0.48 ms on the same pool),
   * which on an effectful step is over a third of its budget. Everything else goes through Prisma.
   * `direct`: the same write as plain INSERTs (wire.ts directCommit), which the lanes send
   * instead; `op` is then built only if they need it (a refused direct write). The embedded line
   * ignores `direct`.
   */
  apply: (runId: string, op: OpSource, direct?: DirectWrite | null) => Promise<unknown>;
  /**
   * Plain SQL on the database's own driver, for the reads a resume makes before its first step
   * (run-reads.ts: they never wait for Prisma's engine to compile). Without it, Prisma reads them.
   */
  sql?: SqlQuery;
  /** what the commit lanes sent so far (Postgres; benchmarks read it) */
  writeStats?: () => WriteStats;
  /**
   * How long a commit keeps trying through a lost connection (a database restart) before it gives
   * up with `store_unreachable` (default STORE_RECONNECT_MS).
   */
  reconnectMs?: number;
};

/** a commit rides out a database restart this long: connections come back, the commit is sent again */
export const STORE_RECONNECT_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** the events a resent unit found recorded are its own (same seqs, types and data) */
function isSameEvents(recorded: RunEvent[], mine: RunEvent[]): boolean {
  return recorded.length === mine.length && mine.every((e, i) => recorded[i].seq === e.seq && recorded[i].type === e.type && JSON.stringify(recorded[i].data) === JSON.stringify(e.data));
}

/** A second writer can win the race for a seq between our check and our insert; asking again reports it. */
const MAX_COMMIT_ATTEMPTS = 3;

export class PrismaStore implements StorePort {
  private client: PrismaClient | null = null;
  private making: Promise<PrismaClient> | null = null;
  private readonly makeClient: PrismaStoreParts['makeClient'];
  readonly backend: StoreBackend;
  readonly location: string;
  /** skills and their versions (outside the kernel's port) */
  readonly skills: SkillRepo;
  /** the runs list: filters, search, keyset pages, the chart's aggregate (outside the kernel's port) */
  readonly runIndex: RunIndex;
  private readonly claims: ClaimRegistry;
  /** the claims' releaseInCommit, bound (commit-route.ts calls it for a run's end) */
  private readonly releaseInCommit: ((runId: string) => string | null) | undefined;
  private readonly onClose?: () => Promise<void>;
  private readonly apply: PrismaStoreParts['apply'];
  private readonly lazyCommits: boolean;
  private readonly reconnectMs: number;
  private readonly raw: RunReads | null;
  /**
   * Plain SQL on the database's own driver (PrismaStoreParts.sql), or null: for what a process that
   * only drives runs asks beside them (a worker's registry), which must not load Prisma's client.
   */
  readonly sql: SqlQuery | null;
  private closing: Promise<void> | null = null;
  private readonly appends = new AppendListeners();
  private readonly abortPoll: AbortPoll;
  /** statements the write path sent, the operations they carried and their time in flight; null where writes are not batched (PGlite) */
  readonly writeStats: () => WriteStats | null;

  constructor(parts: PrismaStoreParts) {
    this.makeClient = parts.makeClient;
    // the embedded store's reads of skills on its own line, without Prisma (skills.ts `lookups`); on Postgres
    // they stay on Prisma's pool, as the runs list does
    const lookups = parts.backend === 'pglite' ? parts.sql : undefined;
    this.skills = new PrismaSkillRepo(() => this.db(), parts.sql, lookups);
    // the runs list on the embedded store's own line, without Prisma (run-index.ts); on Postgres it stays
    // on Prisma's pool, not on the driver's two connections kept for a resume's reads
    this.runIndex = new PrismaRunIndex(() => this.db(), lookups);
    this.claims = parts.claims;
    this.releaseInCommit = parts.claims.releaseInCommit?.bind(parts.claims);
    this.backend = parts.backend;
    this.location = parts.location;
    this.onClose = parts.onClose;
    this.apply = parts.apply;
    this.writeStats = parts.writeStats ?? (() => null);
    // a lazy unit may be acknowledged before it is on disk only where a WAL writer flushes it
    // moments later (Postgres); the embedded PGlite has none, so there it would last only until
    // our own process died
    this.lazyCommits = parts.backend === 'postgres';
    this.reconnectMs = parts.reconnectMs ?? STORE_RECONNECT_MS;
    this.sql = parts.sql ?? null;
    const raw = parts.sql ? new RunReads(parts.sql) : null;
    this.raw = raw;
    this.abortPoll = new AbortPoll(async (runIds) =>
      raw ? raw.readAbortRequests(runIds) : (await (await this.db()).abortRequest.findMany({ where: { runId: { in: runIds } } })).map(toAbortRequest),
    );
  }

  /**
   * Prisma's client, for everything outside the kernel's port (skills, the runs list, tests): made
   * (and on the embedded store, imported) the first time it is asked for.
   */
  async db(): Promise<PrismaClient> {
    if (this.client) return this.client;
    // one load however many ask at once; a load that failed is tried again by the next one to ask
    this.making ??= Promise.resolve()
      .then(() => this.makeClient())
      .then(
      (c) => (this.client = c),
      (e) => {
        this.making = null;
        throw e;
      },
    );
    return this.making;
  }

  // ------------------------------------------------------------------ writes

  async createRun(run: RunRecord, first: CommitUnit): Promise<void> {
    // on Postgres a direct write (wire.ts directCreate), whose op is built only if it is refused
    const direct = this.backend === 'postgres' ? serialized(() => directCreate(run, first), run.id) : null;
    const op = direct ? () => opCreate(run, first) : serialized(() => opCreate(run, first), run.id);
    try {
      await this.apply(run.id, op, direct);
    } catch (e) {
      throw isConnectionError(e) ? unreachableError(this.location, e) : storeErrorOf(e, run.id);
    }
    if (first.events.length) this.appends.notify(run.id, first.events[first.events.length - 1].seq);
  }

  async commit(runId: string, unit: CommitUnit): Promise<CommitResult> {
    if (unit.lazy && !this.lazyCommits) unit = { ...unit, lazy: false };
    // one decision (commit-route.ts): a direct write on the lanes, or the op, which lets go of the claim when it ends the run
    const route = serialized(() => commitRoute(runId, unit, { direct: this.backend === 'postgres' || carriesMuch(unit), releaseInCommit: this.releaseInCommit }), runId);
    const result = await this.commitOp(runId, unit, route.op, route.unlock, route.kind === 'direct' ? route.direct : null);
    return this.committed(runId, unit, result);
  }

  /** a commit's answer, once its appends are announced */
  private committed(runId: string, unit: CommitUnit, result: CommitResult): CommitResult {
    if (result.kind === 'committed' && unit.events.length) this.appends.notify(runId, unit.events[unit.events.length - 1].seq);
    return result;
  }

  private async commitOp(runId: string, unit: CommitUnit, op: OpSource, unlock: string | null, direct: DirectWrite | null): Promise<CommitResult> {
    const giveUpAt = Date.now() + this.reconnectMs;
    let isResent = false;
    for (let attempt = 1; ; attempt++) {
      try {
        // a claim lost with its connection is taken again first; another holder means this process stops
        const held = this.claims.ensureHeld?.(runId) ?? true;
        if (held !== true && !(await held)) return { kind: 'conflict', recorded: await this.recordedAt(runId, unit) };
        const r = (await this.apply(runId, op, direct)) as CommitResult;
        // sent again after a lost connection: the first send may have been applied before the loss
        if (isResent && r.kind === 'conflict' && isSameEvents(r.recorded, unit.events)) return { kind: 'committed' };
        return r;
      } catch (e) {
        if (isEventKeyRace(e) && attempt < MAX_COMMIT_ATTEMPTS) continue;
        if (isConnectionError(e) && Date.now() < giveUpAt && !this.closing) {
          isResent = true;
          await sleep(Math.min(100 * 2 ** Math.min(attempt, 5), 2_000));
          continue;
        }
        // a failed statement released nothing: the claim handed to it is let go on its own
        if (unlock) void this.apply(runId, opUnlock(unlock)).catch(() => undefined);
        throw isConnectionError(e) ? unreachableError(this.location, e) : storeErrorOf(e, runId);
      }
    }
  }

  /** what the log holds at the unit's seqs (for a conflict found without sending the unit) */
  private async recordedAt(runId: string, unit: CommitUnit): Promise<RunEvent[]> {
    const first = unit.events[0]?.seq;
    if (first === undefined) return [];
    const rows = await (await this.db()).event.findMany({ where: { runId, seq: { gte: first, lte: first + unit.events.length - 1 } }, orderBy: { seq: 'asc' } });
    return rows.map(toRunEvent);
  }

  claimRun(runId: string): Promise<RunClaim | null> {
    return this.read(() => this.claims.claim(runId));
  }

  holdsClaim(runId: string): boolean {
    return this.claims.holds(runId);
  }

  // ------------------------------------------------------------------ reads
  // (a lost connection is store_unreachable: the kernel stops the run for it, the HTTP edge answers 503)

  async getRun(runId: string): Promise<RunRecord | null> {
    return this.read(async () => {
      if (this.raw) return this.raw.getRun(runId);
      const r = await (await this.db()).run.findUnique({ where: { id: runId } });
      return r ? toRunRecord(r) : null;
    });
  }

  async getRunStatus(runId: string): Promise<RunStatus | null> {
    return this.read(async () => {
      if (this.raw) return this.raw.getRunStatus(runId);
      const r = await (await this.db()).run.findUnique({ where: { id: runId }, select: { status: true } });
      return r ? (r.status as RunStatus) : null;
    });
  }

  async listRuns(filter: RunFilter = {}): Promise<RunRecord[]> {
    return this.read(async () => {
      // by status alone, or no filter at all (a worker's sweep, the resume at start): plain SQL, so a
      // worker never loads Prisma's client; on the embedded store, any filter (`stagecraft regress`)
      if (this.raw && (isByStatusOnly(filter) || this.backend === 'pglite')) {
        const { status, limit, ...more } = filter;
        return this.raw.listRuns(status ?? null, limit, more);
      }
      const rows = await (await this.db()).run.findMany({
        where: runWhere(filter),
        // ties keep creation order, as a stable sort of MemoryStore's insertion order does
        orderBy: [{ createdAt: 'desc' }, { ord: 'asc' }],
        ...(filter.limit !== undefined ? { take: Math.max(0, filter.limit) } : {}),
      });
      return rows.map(toRunRecord);
    });
  }

  countRuns(filter: RunFilter = {}): Promise<number> {
    return this.read(async () => (await this.db()).run.count({ where: runWhere(filter) }));
  }

  async readEvents(runId: string, afterSeq = 0, limit?: number): Promise<RunEvent[]> {
    return this.read(async () => {
      if (this.raw) {
        const events = await this.raw.readEvents(runId, afterSeq, limit);
        if (events.length === 0) await this.mustExist(runId);
        return events;
      }
      // a page is one index range scan on the (run_id, seq) key: nothing past `limit` is read
      const rows = await (await this.db()).event.findMany({
        where: { runId, seq: { gt: afterSeq } },
        orderBy: { seq: 'asc' },
        ...(limit !== undefined ? { take: Math.max(0, limit) } : {}),
      });
      if (rows.length === 0) await this.mustExist(runId);
      return rows.map(toRunEvent);
    });
  }

  async readTraces(runId: string): Promise<StageTrace[]> {
    return this.read(async () => {
      const traces = this.raw ? await this.raw.readTraces(runId) : (await (await this.db()).stageTrace.findMany({ where: { runId }, orderBy: { ord: 'asc' } })).map(toStageTrace);
      if (traces.length === 0) await this.mustExist(runId);
      return traces;
    });
  }

  async readMemo(runId: string): Promise<MemoEntry[]> {
    return this.read(async () => {
      const rows = await (await this.db()).event.findMany({
        where: { runId, type: EVENT.stepCompleted },
        orderBy: { seq: 'asc' },
      });
      if (rows.length === 0) await this.mustExist(runId);
      const out: MemoEntry[] = [];
      for (const row of rows) {
        const m = memoEntryOf(toRunEvent(row));
        if (m) out.push(m);
      }
      return out;
    });
  }

  async readSnapshot(runId: string): Promise<Snapshot | null> {
    return this.read(async () => {
      if (this.raw) return this.raw.readSnapshot(runId);
      const s = await (await this.db()).snapshot.findUnique({ where: { runId } });
      return s ? toSnapshot(s) : null;
    });
  }

  async listResumable(): Promise<string[]> {
    return this.read(async () => {
      // plain SQL where there is a line: the app's boot asks this first thing, and Prisma's client need not load for it
      if (this.raw) return this.raw.listResumable();
      const rows = await (await this.db()).snapshot.findMany({ select: { runId: true }, orderBy: { run: { ord: 'asc' } } });
      return rows.map((r) => r.runId);
    });
  }

  async readArtifact(runId: string, path: string): Promise<WorkspaceArtifact | null> {
    return this.read(async () => {
      if (this.raw) {
        const found = await this.raw.readArtifact(runId, path);
        if (!found) await this.mustExist(runId);
        return found;
      }
      const a = await (await this.db()).workspaceArtifact.findUnique({ where: { runId_path: { runId, path } } });
      if (!a) await this.mustExist(runId);
      return a ? toArtifact(a) : null;
    });
  }

  async listArtifacts(runId: string): Promise<WorkspaceArtifact[]> {
    return this.read(async () => {
      // plain SQL on the embedded store (`stagecraft export`, `regress`); on Postgres, Prisma's pool
      if (this.raw && this.backend === 'pglite') {
        const found = await this.raw.listArtifacts(runId);
        if (found.length === 0) await this.mustExist(runId);
        return found;
      }
      const rows = await (await this.db()).workspaceArtifact.findMany({ where: { runId }, orderBy: { ord: 'asc' } });
      if (rows.length === 0) await this.mustExist(runId);
      return rows.map(toArtifact);
    });
  }

  onAppend(fn: (runId: string, lastSeq: number) => void): () => void {
    return this.appends.add(fn);
  }

  // ------------------------------------------------------------------ abort requests

  async requestAbort(req: AbortRequest): Promise<AbortRequest> {
    const recorded = await this.read(async () => {
      await this.mustExist(req.runId);
      // the first request stays: a second one (another user, a retry) changes nothing
      await (await this.db()).abortRequest.createMany({
        data: [{ runId: req.runId, reason: req.reason, requestedBy: req.requestedBy, via: req.via, requestedAt: new Date(req.requestedAt) }],
        skipDuplicates: true,
      });
      const row = await (await this.db()).abortRequest.findUnique({ where: { runId: req.runId } });
      return toAbortRequest(row!);
    });
    // a run this process drives hears of it now, not at the next poll
    this.abortPoll.watchers.notify(recorded);
    return recorded;
  }

  async readAbortRequest(runId: string): Promise<AbortRequest | null> {
    return this.read(async () => {
      if (this.raw) return (await this.raw.readAbortRequests([runId]))[0] ?? null;
      const row = await (await this.db()).abortRequest.findUnique({ where: { runId } });
      return row ? toAbortRequest(row) : null;
    });
  }

  watchAbortRequest(runId: string, fn: (req: AbortRequest) => void): () => void {
    return this.abortPoll.watch(runId, fn);
  }

  /** One round trip to the database: resolves when it answers, else store_unreachable. */
  async ping(): Promise<void> {
    await this.read(async () => (this.sql ? await this.sql('SELECT 1', []) : await (await this.db()).$queryRaw`SELECT 1`));
  }

  // ------------------------------------------------------------------ lifecycle

  /** Releases claims, disconnects, then frees what opening took. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.abortPoll.close();
      await this.claims.close();
      await this.making?.catch(() => undefined); // a client being loaded is disconnected too
      await this.client?.$disconnect();
      await this.onClose?.();
    })();
    return this.closing;
  }

  private read<T>(fn: () => Promise<T>): Promise<T> {
    return reachable(this.location, fn);
  }

  private async mustExist(runId: string): Promise<void> {
    const n = this.raw ? Number(await this.raw.runExists(runId)) : await (await this.db()).run.count({ where: { id: runId } });
    if (n === 0) throw new RunNotFoundError(runId);
  }
}

/**
 * A write's wire text, or UnsupportedValueError when its values cannot be written as JSON (a string
 * past what the runtime can hold, a value JSON has no form for): the same values fail every time,
 * so this is the value's failure, never the store's.
 */
function serialized<T>(build: () => T, runId: string): T {
  try {
    return build();
  } catch (e) {
    throw new UnsupportedValueError(`this value cannot be written as JSON (${e instanceof Error ? e.message : String(e)}); keep large or binary data in the workspace, not in a step's output`, { runId });
  }
}

/** a filter on status (and a limit) alone: what RunReads.listRuns answers */
function isByStatusOnly(filter: RunFilter): boolean {
  return Object.entries(filter).every(([key, v]) => key === 'status' || key === 'limit' || v === undefined);
}

function runWhere(filter: RunFilter) {
  return {
    ...(filter.status ? { status: { in: filter.status } } : {}),
    ...(filter.skillName !== undefined ? { skillName: filter.skillName } : {}),
    ...(filter.idPrefix !== undefined ? { id: { startsWith: filter.idPrefix } } : {}),
    ...(filter.kind ? { kind: { in: filter.kind } } : {}),
    ...(filter.parentRunId !== undefined ? { parentRunId: filter.parentRunId } : {}),
  };
}
