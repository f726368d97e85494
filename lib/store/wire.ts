/**
 * The shape a unit or a run record travels in to the commit functions
 * (prisma/migrations/*_verbatim_json): the port's own camelCase record, except
 * that every JSON payload (event data, snapshot data, trace effects /
 * contribution / notApplied / error, artifact content, run input / output /
 * error / report) is replaced by its JSON text, a string.
 *
 * Why: SQL that reads a payload as JSON re-parses it — jsonb re-orders its keys
 * and every JSON function refuses a \u0000 inside it — while a string is only
 * unwrapped and cast to `json`, which keeps the text exactly. So what is read
 * back is what was written, key order included (the memo depends on it; see the
 * migration). The scalars around the payloads stay JSON values, parsed by
 * jsonb_to_recordset in one pass.
 *
 * A write travels as one operation of a batch for `stagecraft_apply`
 * (prisma/migrations/*_batched_apply): `opCreate`, `opCommit`, `opClaim`,
 * `opUnlock` build its JSON text, which the commit lanes join into the batch.
 *
 * Owns: this encoding, both directions' conventions (`'null'` text = SQL NULL
 * for nullable payloads; a run-patch key is sent only when it holds a value).
 * Does not: validate the records (the port's types and the table CHECKs do).
 */
import type { CommitUnit, RunRecord } from '../kernel/ports';

const text = (v: unknown): string => JSON.stringify(v ?? null);

function wireUnit(unit: CommitUnit): string {
  const wire: Record<string, unknown> = {
    events: unit.events.map((e) => ({ seq: e.seq, type: e.type, at: e.at, data: text(e.data) })),
  };
  if (unit.traces?.length) {
    wire.traces = unit.traces.map((t) => ({
      id: t.id,
      seq: t.seq,
      round: t.round,
      phase: t.phase,
      rung: t.rung,
      capability: t.capability,
      stage: t.stage,
      status: t.status,
      effects: text(t.effects),
      contribution: text(t.contribution),
      notApplied: text(t.notApplied),
      error: text(t.error),
      startedAt: t.startedAt,
      endedAt: t.endedAt,
      durationMs: t.durationMs,
    }));
  }
  if (unit.snapshot === 'delete') wire.snapshot = 'delete';
  else if (unit.snapshot) {
    const s = unit.snapshot;
    wire.snapshot = { currentPhase: s.currentPhase, seq: s.seq, data: text(s.data) };
  }
  if (unit.artifacts?.length) {
    wire.artifacts = unit.artifacts.map((a) => ({
      path: a.path,
      content: text(a.content),
      sha256: a.sha256,
      size: a.size,
      createdAt: a.createdAt,
    }));
  }
  if (unit.run) {
    const patch: Record<string, unknown> = {};
    const r = unit.run;
    if (r.status !== undefined) patch.status = r.status;
    if (r.updatedAt !== undefined) patch.updatedAt = r.updatedAt;
    for (const k of ['output', 'error', 'report'] as const) if (r[k] !== undefined) patch[k] = text(r[k]);
    wire.run = patch;
  }
  if (unit.lazy) wire.lazy = true;
  return JSON.stringify(wire);
}

function wireRun(run: RunRecord): string {
  return JSON.stringify({
    ...run,
    input: text(run.input),
    output: text(run.output),
    error: text(run.error),
    report: text(run.report),
  });
}

/** One write operation for `stagecraft_apply`, as JSON text (a lane joins several into one batch). */
export type WireOp = string;

/** The statement every write goes through: its one parameter is `batchParam(ops)`; its `r` is their results, in order. */
export const APPLY_SQL = 'SELECT stagecraft_apply($1::jsonb) AS r';

export const batchParam = (ops: readonly WireOp[]): string => `[${ops.join(',')}]`;

export const opCreate = (run: RunRecord, first: CommitUnit): WireOp => `{"op":"create","run":${wireRun(run)},"unit":${wireUnit(first)}}`;

/** `unlock`: the claim key to let go of in the same statement (a commit that ends the run) */
export const opCommit = (runId: string, unit: CommitUnit, unlock?: string | null): WireOp =>
  `{"op":"commit","runId":${JSON.stringify(runId)},"unit":${wireUnit(unit)}${unlock ? `,"unlock":"${unlock}"` : ''}}`;

/** A commit operation (built without `unlock`) that also lets go of the claim `unlock` once applied. */
export const withUnlock = (op: WireOp, unlock: string): WireOp => `${op.slice(0, -1)},"unlock":"${unlock}"}`;

export const opClaim = (key: string): WireOp => `{"op":"claim","key":"${key}"}`;

export const opUnlock = (key: string): WireOp => `{"op":"unlock","key":"${key}"}`;
