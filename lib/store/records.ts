/**
 * Rows as Prisma reads them → the kernel's records (ports.ts).
 *
 * Owns: the one place where database shapes meet port shapes: Date ↔ epoch
 * ms, SQL NULL ↔ null, jsonb ↔ Json. Writes go the other way inside the
 * database (the commit functions read the port's camelCase JSON directly), so
 * there is no JS-side mapping on the hot path.
 *
 * Does not: query. Times are stored as timestamptz(3): integer epoch ms round
 * trip exactly; a fractional ms is rounded to the millisecond.
 */
import type { Json, JsonObject } from '../kernel/json';
import type { AbortRequest, RunEvent, RunKind, RunRecord, RunStatus, Snapshot, StageTrace, TraceStatus, WorkspaceArtifact } from '../kernel/ports';
import type { Rung } from '../kernel/plan';
import type {
  AbortRequest as AbortRequestRow,
  Event as EventRow,
  Run as RunRow,
  Snapshot as SnapshotRow,
  StageTrace as TraceRow,
  WorkspaceArtifact as ArtifactRow,
} from './generated/prisma/client';

/** the rows as Prisma reads them (run-reads.ts shapes its plain SQL rows the same way) */
export type { AbortRequestRow, ArtifactRow, EventRow, RunRow, SnapshotRow, TraceRow };

const ms = (d: Date): number => d.getTime();

export function toRunRecord(r: RunRow): RunRecord {
  return {
    id: r.id,
    skillName: r.skillName,
    skillHash: r.skillHash,
    skillText: r.skillText,
    bundleDir: r.bundleDir,
    skillVersionId: r.skillVersionId,
    input: r.input as JsonObject,
    model: r.model,
    status: r.status as RunStatus,
    output: (r.output ?? null) as Json | null,
    error: (r.error ?? null) as JsonObject | null,
    report: (r.report ?? null) as JsonObject | null,
    kind: r.kind as RunKind,
    parentRunId: r.parentRunId,
    forkPoint: r.forkPoint,
    createdAt: ms(r.createdAt),
    updatedAt: ms(r.updatedAt),
  };
}

export function toRunEvent(e: EventRow): RunEvent {
  return { runId: e.runId, seq: e.seq, type: e.type, at: ms(e.at), data: e.data as JsonObject };
}

export function toStageTrace(t: TraceRow): StageTrace {
  return {
    id: t.id,
    runId: t.runId,
    seq: t.seq,
    round: t.round,
    phase: t.phase,
    rung: t.rung as Rung,
    capability: t.capability,
    stage: t.stage,
    status: t.status as TraceStatus,
    effects: t.effects as StageTrace['effects'],
    contribution: (t.contribution ?? null) as Json | null,
    notApplied: t.notApplied as JsonObject[],
    error: (t.error ?? null) as StageTrace['error'],
    startedAt: ms(t.startedAt),
    endedAt: ms(t.endedAt),
    durationMs: t.durationMs,
  };
}

export function toSnapshot(s: SnapshotRow): Snapshot {
  return { runId: s.runId, currentPhase: s.currentPhase, seq: s.seq, data: s.data as JsonObject };
}

export function toArtifact(a: ArtifactRow): WorkspaceArtifact {
  return {
    runId: a.runId,
    path: a.path,
    content: a.content as Json,
    sha256: a.sha256,
    size: a.size,
    createdAt: ms(a.createdAt),
  };
}

export function toAbortRequest(r: AbortRequestRow): AbortRequest {
  return { runId: r.runId, reason: r.reason, requestedBy: r.requestedBy, via: r.via, requestedAt: ms(r.requestedAt) };
}
