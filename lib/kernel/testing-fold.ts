/**
 * Test support for the fold: a store that records what the kernel committed
 * (each snapshot with its seq, the workspace and the run's status after each
 * commit), a model and a sandbox that record what they were sent, and
 * `checkFold`, which holds the fold to all of it — the state at every k
 * against the snapshot the kernel wrote, the workspace and status at every
 * commit, and every rebuilt model request, stage context and step input
 * against what the model, the handlers and the memo keys saw. Used by tests only.
 */
import assert from 'node:assert/strict';
import type { CodeCall, CodeSandbox, CommitUnit, ModelPort, ModelRequest, RunEvent, Snapshot, StorePort } from './ports';
import type { StageContext, StageHandler } from './stage-types';
import { MemoryStore } from './memory-store';
import { RunFold } from './fold';
import { stateAt } from './fold-state';
import { rebuildStep } from './rebuild';
import { canonicalJson, sha256 } from './memo';
import { EVENT } from './events';

export type Committed = {
  /** the last seq of the unit */
  seq: number;
  snapshot: Snapshot | 'delete' | undefined;
  artifacts: Record<string, string>;
  status: string;
};

/** A memory store that keeps, per commit, what the kernel had committed by then. */
export class RecordingStore extends MemoryStore {
  readonly committed = new Map<string, Committed[]>();

  override async commit(runId: string, unit: CommitUnit) {
    const r = await super.commit(runId, unit);
    if (r.kind === 'committed' && unit.events.length) {
      const arts = await this.listArtifacts(runId);
      const list = this.committed.get(runId) ?? [];
      list.push({
        seq: unit.events[unit.events.length - 1].seq,
        snapshot: structuredClone(unit.snapshot),
        artifacts: Object.fromEntries(arts.map((a) => [a.path, a.sha256])),
        status: (await this.getRun(runId))!.status,
      });
      this.committed.set(runId, list);
    }
    return r;
  }
}

export function recordingModel(inner: ModelPort): ModelPort & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: inner.name,
    requests,
    async invoke(req) {
      requests.push(structuredClone(req));
      return inner.invoke(req);
    },
  };
}

export function recordingSandbox(inner: CodeSandbox): CodeSandbox & { calls: CodeCall[] } {
  const calls: CodeCall[] = [];
  return {
    calls,
    async call(c) {
      calls.push(structuredClone(c));
      return inner.call(c);
    },
    close: () => inner.close(),
  };
}

/** Handlers that record the context each stage was handed, then run `run` (default: contribute nothing). */
export function recordingHandlers(names: string[], run: Record<string, StageHandler> = {}): { handlers: Record<string, StageHandler>; contexts: StageContext[] } {
  const contexts: StageContext[] = [];
  const handlers: Record<string, StageHandler> = {};
  for (const n of names) {
    handlers[n] = (ctx) => {
      contexts.push(structuredClone(ctx));
      return run[n]?.(ctx);
    };
  }
  return { handlers, contexts };
}

export type FoldEvidence = {
  store: RecordingStore;
  runId: string;
  /** every request the model was sent, in order */
  requests?: ModelRequest[];
  /** every context a stage handler was handed, in order (all stages of the run, or those of `stagesOf`) */
  contexts?: StageContext[];
  /** limit `contexts` to these stage names (others ran without recording) */
  stagesOf?: ReadonlySet<string>;
};

/**
 * Holds the fold of a run to what the kernel had: returns the fold and the number of checks made.
 * Every k: the resume state equals the last snapshot committed at or before k. Every commit: the
 * workspace (by content hash) and the status. Every model request and recorded stage context is
 * rebuilt equal, and every step's rebuilt input hashes to its recorded memo key.
 */
export async function checkFold(ev: FoldEvidence): Promise<{ fold: RunFold; checks: number }> {
  const events: RunEvent[] = await ev.store.readEvents(ev.runId);
  const fold = new RunFold(ev.runId, events);
  let checks = 0;
  const commits = ev.store.committed.get(ev.runId) ?? [];
  // the snapshot at every k (the first is the one the run was created with)
  const moves: { seq: number; snap: Snapshot | null }[] = [];
  for (const c of commits) if (c.snapshot) moves.push({ seq: c.snapshot === 'delete' ? c.seq : c.snapshot.seq, snap: c.snapshot === 'delete' ? null : c.snapshot });
  let m = -1;
  for (let k = 1; k <= events.length; k++) {
    while (m + 1 < moves.length && moves[m + 1].seq <= k) m++;
    const state = stateAt(fold, k);
    const snap = m >= 0 ? moves[m].snap : null;
    const expected = snap ? { currentPhase: snap.currentPhase, seq: snap.seq, data: snap.data } : null;
    if (m >= 0) {
      assert.deepEqual(state.resume, expected, `resume state at seq ${k}`);
      checks++;
    }
  }
  for (const c of commits) {
    const state = stateAt(fold, c.seq);
    const ws = Object.fromEntries(state.workspace.map((w) => [w.path, sha256(typeof w.content === 'string' ? w.content : canonicalJson(w.content))]));
    assert.deepEqual(ws, c.artifacts, `workspace after the commit ending at seq ${c.seq}`);
    assert.equal(state.status, c.status, `status after the commit ending at seq ${c.seq}`);
    checks += 2;
  }
  const stepSeqs = events.filter((e) => e.type === EVENT.stepCompleted).map((e) => e.seq);
  for (const seq of stepSeqs) {
    const r = rebuildStep(fold, seq);
    assert.ok(r, `seq ${seq} (${String(events[seq - 1].data.position)}) is rebuilt`);
    assert.ok(r.verified, `the rebuilt input of seq ${seq} (${String(events[seq - 1].data.position)}) hashes to its memo key`);
    checks++;
  }
  if (ev.requests) {
    const models = events.filter((e) => e.type === EVENT.stepCompleted && e.data.kind === 'model');
    assert.equal(models.length, ev.requests.length, 'one recorded model step per request');
    models.forEach((e, i) => {
      const r = rebuildStep(fold, e.seq);
      assert.ok(r && r.kind === 'model');
      assert.deepEqual(r.request, ev.requests![i], `the request of ${String(e.data.position)}`);
      checks++;
    });
  }
  if (ev.contexts) {
    const ran = events.filter(
      (e) => e.type === EVENT.stepCompleted && e.data.kind === 'stage' && (e.data.status === 'ok' || e.data.status === 'failed') && (!ev.stagesOf || ev.stagesOf.has(String(e.data.stage))),
    );
    assert.equal(ran.length, ev.contexts.length, 'one recorded stage step per handler call');
    ran.forEach((e, i) => {
      const r = rebuildStep(fold, e.seq);
      assert.ok(r && r.kind === 'stage');
      assert.deepEqual(r.context, ev.contexts![i], `the context of ${String(e.data.position)}`);
      checks++;
    });
  }
  return { fold, checks };
}

/** a store whose commits can be inspected, typed as the port */
export function asPort(s: RecordingStore): StorePort {
  return s;
}
