/**
 * An in-memory `StorePort`: what the kernel's own tests and `--store memory`
 * use. It keeps the same invariants as the Postgres store, so a test that
 * passes here means the kernel respects them: `(runId, seq)` unique and
 * gap-free from 1, events never updated, a commit applies all of its parts or
 * none, a duplicate seq returns what is recorded instead of an error.
 *
 * Does not: persist anything, or coordinate across processes.
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
  Snapshot,
  StageTrace,
  StorePort,
  WorkspaceArtifact,
} from './ports';
import { memoEntryOf } from './memo';
import { AppendListeners } from './append-listeners';
import { AbortWatchers } from './abort-watchers';
import { RunNotFoundError } from './errors';
import { readableInRow, unreadableInRow } from './row-readable';

type RunState = {
  run: RunRecord;
  events: RunEvent[];
  traces: StageTrace[];
  snapshot: Snapshot | null;
  artifacts: Map<string, WorkspaceArtifact>;
};

const clone = <T>(v: T): T => structuredClone(v);

/** a run patch's error and report as a runs row holds them (row-readable.ts), as every store reads them back */
function inRow<T extends Partial<RunRecord>>(r: T): T {
  for (const k of ['error', 'report'] as const) if (r[k] != null && unreadableInRow(JSON.stringify(r[k]))) r[k] = readableInRow(r[k]) as never;
  return r;
}

export class MemoryStore implements StorePort {
  private readonly runs = new Map<string, RunState>();
  private readonly claims = new Set<string>();
  private readonly appends = new AppendListeners();
  private readonly abortRequests = new Map<string, AbortRequest>();
  private readonly abortWatchers = new AbortWatchers();

  async createRun(run: RunRecord, first: CommitUnit): Promise<void> {
    if (this.runs.has(run.id)) throw new Error(`run ${run.id} exists`);
    this.runs.set(run.id, { run: inRow(clone(run)), events: [], traces: [], snapshot: null, artifacts: new Map() });
    const r = await this.commit(run.id, first);
    if (r.kind !== 'committed') throw new Error('first commit of a new run conflicted');
  }

  async commit(runId: string, unit: CommitUnit): Promise<CommitResult> {
    const st = this.mustGet(runId);
    let expected = st.events.length + 1;
    for (const e of unit.events) {
      if (e.seq !== expected) {
        if (e.seq <= st.events.length) {
          const recorded = unit.events.map((x) => st.events[x.seq - 1]).filter(Boolean);
          return { kind: 'conflict', recorded: clone(recorded) };
        }
        throw new Error(`seq gap in run ${runId}: expected ${expected}, got ${e.seq}`);
      }
      expected++;
    }
    for (const e of unit.events) st.events.push(clone(e));
    for (const t of unit.traces ?? []) st.traces.push(clone(t));
    if (unit.snapshot === 'delete') st.snapshot = null;
    else if (unit.snapshot) st.snapshot = clone(unit.snapshot);
    for (const a of unit.artifacts ?? []) st.artifacts.set(a.path, clone(a));
    if (unit.run) Object.assign(st.run, inRow(clone(unit.run)));
    if (unit.events.length) this.appends.notify(runId, unit.events[unit.events.length - 1].seq);
    return { kind: 'committed' };
  }

  async claimRun(runId: string): Promise<RunClaim | null> {
    if (this.claims.has(runId)) return null;
    this.claims.add(runId);
    return { release: async () => void this.claims.delete(runId) };
  }

  holdsClaim(runId: string): boolean {
    return this.claims.has(runId);
  }

  async getRun(runId: string) {
    const st = this.runs.get(runId);
    return st ? clone(st.run) : null;
  }

  async getRunStatus(runId: string) {
    return this.runs.get(runId)?.run.status ?? null;
  }

  async listRuns(filter: RunFilter = {}) {
    const out = this.matching(filter);
    out.sort((a, b) => b.createdAt - a.createdAt);
    return clone(out.slice(0, filter.limit ?? out.length));
  }

  async countRuns(filter: RunFilter = {}) {
    return this.matching(filter).length;
  }

  private matching(filter: RunFilter): RunRecord[] {
    let out = [...this.runs.values()].map((s) => s.run);
    if (filter.status) out = out.filter((r) => filter.status!.includes(r.status));
    if (filter.skillName) out = out.filter((r) => r.skillName === filter.skillName);
    if (filter.idPrefix !== undefined) out = out.filter((r) => r.id.startsWith(filter.idPrefix!));
    if (filter.kind) out = out.filter((r) => filter.kind!.includes(r.kind));
    if (filter.parentRunId !== undefined) out = out.filter((r) => r.parentRunId === filter.parentRunId);
    return out;
  }

  async readEvents(runId: string, afterSeq = 0, limit?: number) {
    const from = Math.max(0, afterSeq);
    return clone(this.mustGet(runId).events.slice(from, limit === undefined ? undefined : from + Math.max(0, limit)));
  }

  async readTraces(runId: string) {
    return clone(this.mustGet(runId).traces);
  }

  async readMemo(runId: string): Promise<MemoEntry[]> {
    const out: MemoEntry[] = [];
    for (const e of this.mustGet(runId).events) {
      const m = memoEntryOf(e);
      if (m) out.push(clone(m));
    }
    return out;
  }

  async readSnapshot(runId: string) {
    const s = this.runs.get(runId)?.snapshot;
    return s ? clone(s) : null;
  }

  async listResumable() {
    return [...this.runs.values()].filter((s) => s.snapshot !== null).map((s) => s.run.id);
  }

  async readArtifact(runId: string, path: string) {
    const a = this.mustGet(runId).artifacts.get(path);
    return a ? clone(a) : null;
  }

  async listArtifacts(runId: string) {
    return clone([...this.mustGet(runId).artifacts.values()]);
  }

  onAppend(fn: (runId: string, lastSeq: number) => void): () => void {
    return this.appends.add(fn);
  }

  async requestAbort(req: AbortRequest): Promise<AbortRequest> {
    if (!this.runs.has(req.runId)) throw new RunNotFoundError(req.runId);
    const first = this.abortRequests.get(req.runId);
    if (first) return clone(first);
    this.abortRequests.set(req.runId, clone(req));
    this.abortWatchers.notify(clone(req));
    return clone(req);
  }

  async readAbortRequest(runId: string): Promise<AbortRequest | null> {
    const r = this.abortRequests.get(runId);
    return r ? clone(r) : null;
  }

  watchAbortRequest(runId: string, fn: (req: AbortRequest) => void): () => void {
    const stop = this.abortWatchers.add(runId, fn);
    const recorded = this.abortRequests.get(runId);
    if (recorded) queueMicrotask(() => this.abortWatchers.notify(clone(recorded)));
    return stop;
  }

  async close() {}

  private mustGet(runId: string): RunState {
    const st = this.runs.get(runId);
    if (!st) throw new Error(`no run ${runId} in the memory store`);
    return st;
  }
}
