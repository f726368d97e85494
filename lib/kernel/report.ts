/**
 * Facts from evidence: the run report derived from the event log by one pure
 * function. What can be computed from events is never asked of a model.
 *
 * - outcome: `succeeded` (completed, nothing denied), `blocked` (aborted by a
 *   processor step or a contract, or a tool call was denied), `failed` (a
 *   stage crashed, the model could not finish, an internal error);
 * - block_reason: why it was blocked or failed (null when it succeeded);
 * - failed_stage: the first stage whose trace failed (what the inspector
 *   shows first);
 * - changed_paths: files and workspace paths the run wrote;
 * - step_counts: steps recorded by kind, and processor steps by status.
 *
 * A schema property marked `x-derived: "<fact>"` is machine-derived: it is
 * removed from the response_format sent to a model, and a value the model
 * writes there anyway is overridden with the derived one (phase-runner.ts).
 *
 * Owns: the derivation. Does not: read the store or know about rendering.
 */
import type { JsonObject, JsonSchema } from './json';
import { isJsonObject } from './json';
import { EVENT } from './events';
import type { RunEvent } from './ports';

export type RunReport = {
  outcome: 'succeeded' | 'blocked' | 'failed';
  block_reason: string | null;
  failed_stage: { phase: string; rung: string; stage: string; capability: string; round: number; error: string } | null;
  changed_paths: string[];
  step_counts: { model: number; tool: number; stage: number; processor: number; processor_by_status: Record<string, number> };
  rounds: number;
  annotations: number;
};

export const FACT_NAMES = ['outcome', 'block_reason', 'failed_stage', 'changed_paths', 'step_counts'] as const;

export function deriveReport(events: readonly RunEvent[]): RunReport {
  const counts = { model: 0, tool: 0, stage: 0, processor: 0, processor_by_status: {} as Record<string, number> };
  const changed = new Set<string>();
  let failedStage: RunReport['failed_stage'] = null;
  let denied: string | null = null;
  let rounds = 0;
  let annotations = 0;
  let end: RunEvent | null = null;
  // a step re-executed on resume (a world-purity read) is recorded again at its position: count its last record
  const last = new Map<string, number>();
  const keyOf = (e: RunEvent) => (typeof e.data.position === 'string' ? e.data.position : `#${e.seq}`);
  events.forEach((e, i) => e.type === EVENT.stepCompleted && last.set(keyOf(e), i));
  for (const [i, e] of events.entries()) {
    if (e.type === EVENT.stepCompleted && last.get(keyOf(e)) !== i) continue;
    const d = e.data;
    if (e.type === EVENT.runCompleted || e.type === EVENT.runFailed || e.type === EVENT.runAborted) end = e;
    if (e.type !== EVENT.stepCompleted) continue;
    const kind = String(d.kind);
    if (kind in counts && kind !== 'processor_by_status') (counts as unknown as Record<string, number>)[kind]++;
    if (kind === 'processor') counts.processor_by_status[String(d.status)] = (counts.processor_by_status[String(d.status)] ?? 0) + 1;
    if (kind === 'model') rounds++;
    if (kind === 'tool' && (d.op === 'file/write' || d.op === 'workspace/write') && isJsonObject(d.output) && typeof d.output.path === 'string') {
      changed.add(d.op === 'file/write' ? d.output.path : `workspace:${d.output.path}`);
    }
    if (kind === 'stage') {
      const out = isJsonObject(d.output) ? d.output : {};
      const contribution = isJsonObject(out.contribution) ? out.contribution : {};
      if (Array.isArray(contribution.annotations)) annotations += contribution.annotations.length;
      if (d.status === 'failed' && !failedStage) {
        failedStage = {
          phase: String(d.phase),
          rung: String(d.rung),
          stage: String(d.stage),
          capability: String(d.capability),
          round: Number(d.round),
          error: String((isJsonObject(out.error) ? out.error.message : null) ?? 'failed'),
        };
      }
      if (isJsonObject(contribution.deny) && !denied) {
        const first = Object.values(contribution.deny)[0];
        if (typeof first === 'string') denied = `stage ${String(d.stage)} denied a tool call: ${first}`;
      }
    }
  }
  let outcome: RunReport['outcome'] = 'succeeded';
  let reason: string | null = null;
  const err = end && isJsonObject(end.data.error) ? end.data.error : null;
  if (end?.type === EVENT.runCompleted) {
    outcome = denied ? 'blocked' : 'succeeded';
    reason = denied;
  } else if (end?.type === EVENT.runAborted) {
    outcome = 'blocked';
    reason = String(err?.message ?? 'aborted');
  } else if (end?.type === EVENT.runFailed) {
    outcome = 'failed';
    reason = String(err?.message ?? 'failed');
  } else if (failedStage) {
    outcome = 'failed';
    reason = failedStage.error;
  } else if (denied) {
    outcome = 'blocked';
    reason = denied;
  } else {
    outcome = 'succeeded';
  }
  return {
    outcome,
    block_reason: reason,
    failed_stage: failedStage,
    changed_paths: [...changed].sort(),
    step_counts: counts,
    rounds,
    annotations,
  };
}

/** Properties of an output schema that are machine-derived: field name -> fact name. */
export function derivedFields(schema: JsonSchema): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isJsonObject(schema) || !isJsonObject(schema.properties)) return out;
  for (const [k, v] of Object.entries(schema.properties)) {
    if (isJsonObject(v) && typeof v['x-derived'] === 'string') out[k] = v['x-derived'];
    else if (isJsonObject(v) && v['x-derived'] === true) out[k] = k;
  }
  return out;
}

export function reportToJson(r: RunReport): JsonObject {
  return r as unknown as JsonObject;
}

