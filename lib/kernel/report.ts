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
 * - step_counts: steps recorded by kind, and processor steps by status; the
 *   tool calls include those a pre-tool stage denied (never dispatched, so
 *   never a step: `denied` among tool_by_status).
 *
 * And the words that say what happened, for the run page and the runs list:
 * `summary` (one sentence), the one `error` that ended the run (its stack,
 * bundle paths relative), the `failed_step` of an abort, `aborted_by` (a
 * request — who asked and why — a step with `on_error: fail`, or a contract),
 * `blocked_by` (the denial that blocked a completed run), `needs_attention`
 * (failed, aborted by a step or a contract, or blocked: what the runs list
 * filters on), the `version` the run ran, and how many of each kind of step
 * were `reused` from a recording (a replay's, a fork's before its point).
 *
 * A schema property marked `x-derived: "<fact>"` is machine-derived: it is
 * removed from the response_format sent to a model, and a value the model
 * writes there anyway is overridden with the derived one (phase-runner.ts).
 *
 * Owns: the derivation. Does not: read the store or know about rendering.
 */
import type { JsonObject, JsonSchema } from './json';
import { isJsonObject, merged } from './json';
import { EVENT, EXECUTES_FROM, type AbortCause } from './events';
import type { RunEvent } from './ports';
import { errorInfo, relativeToBundle, type ErrorInfo } from './error-info';
import { partOf, plural } from './plural';
import { deniedCallWords } from './denied-words';

export type RunReport = {
  outcome: 'succeeded' | 'blocked' | 'failed';
  block_reason: string | null;
  failed_stage: { phase: string; rung: string; stage: string; capability: string; round: number; error: string; position: string } | null;
  changed_paths: string[];
  step_counts: {
    model: number;
    tool: number;
    stage: number;
    processor: number;
    processor_by_status: Record<string, number>;
    stage_by_status: Record<string, number>;
    tool_by_status: Record<string, number>;
  };
  rounds: number;
  annotations: number;
  /** the run's status as its log says it (`running` until it ends) */
  status: 'running' | 'completed' | 'failed' | 'aborted';
  /** one sentence: what happened */
  summary: string;
  /** the processor step whose failure ended the run (`on_error: fail`) */
  failed_step: { phase: string; position: string; index: number; type: string; on_error: string; error: string } | null;
  /** the one error that ended the run, with its stack (null for a run that did not fail, or was aborted on request) */
  error: (ErrorInfo & { position: string | null }) | null;
  aborted_by: AbortCause | null;
  /** the denial that blocked a completed run */
  blocked_by: { stage: string; position: string; call: number; reason: string } | null;
  /** failed, aborted by a step or a contract, or blocked — not an abort someone asked for */
  needs_attention: boolean;
  attention: 'failed' | 'aborted' | 'blocked' | null;
  /** the skill the run ran: the hash of its skill.md, and any other a resume ran */
  version: { skill: string; skill_hash: string; resumed_with: string[] };
  /**
   * of step_counts, how many of each kind were answered from a recording (a replay's steps, a fork's
   * before its point) and not run: what the summary's "(all 2 reused)" and the run page's cards count
   */
  reused: ReusedCounts;
};

export const FACT_NAMES = ['outcome', 'block_reason', 'failed_stage', 'changed_paths', 'step_counts'] as const;

const bump = (m: Record<string, number>, k: string) => void (m[k] = (m[k] ?? 0) + 1);

/**
 * The tool calls a pre-tool stage's record denies, by the position each would have had
 * (`gather/r1/tool/2`): a denied call is never dispatched, so no tool step records it, yet it is
 * one of the round's tool calls (counted, as `denied`).
 */
export function deniedCallPositions(d: JsonObject): string[] {
  if (d.kind !== 'stage' || d.rung !== 'pre-tool' || d.status !== 'ok' || typeof d.position !== 'string') return [];
  const at = d.position.indexOf('/pre-tool/');
  const contribution = isJsonObject(d.output) && isJsonObject(d.output.contribution) ? d.output.contribution : null;
  if (at < 0 || !contribution || !isJsonObject(contribution.deny)) return [];
  const round = d.position.slice(0, at);
  return Object.keys(contribution.deny).map((i) => `${round}/tool/${i}`);
}

/**
 * The failed steps whose failure did not end the run: a step nested in an iterate (at any depth)
 * fails, and an enclosing step recorded after it with `on_error: skip` or `empty` took it in (it is
 * `skipped` or `empty`, not `failed`), so the run went on — and whatever stopped it later (a
 * contract, another step) is what ended it, not this step.
 */
export function absorbedFailures(events: readonly RunEvent[]): Set<string> {
  const out = new Set<string>();
  const failed: string[] = [];
  for (const e of events) {
    if (e.type !== EVENT.stepCompleted || typeof e.data.position !== 'string') continue;
    const at = e.data.position;
    if (e.data.status === 'failed') failed.push(at);
    else for (const f of failed) if (f.startsWith(`${at}/`)) out.add(f);
  }
  return out;
}

export function deriveReport(events: readonly RunEvent[]): RunReport {
  const counts: RunReport['step_counts'] = { model: 0, tool: 0, stage: 0, processor: 0, processor_by_status: {}, stage_by_status: {}, tool_by_status: {} };
  const changed = new Set<string>();
  const roots: string[] = [];
  let failedStage: RunReport['failed_stage'] = null;
  let failedStageError: JsonObject | null = null;
  let failedStep: (RunReport['failed_step'] & { raw: JsonObject | null }) | null = null;
  let blockedBy: RunReport['blocked_by'] = null;
  let rounds = 0;
  let annotations = 0;
  // the steps a replay or a fork answered from its parent's recording, by kind (the model was not called for those turns)
  const reused: ReusedCounts = { model: 0, tool: 0, stage: 0, processor: 0 };
  let end: RunEvent | null = null;
  const version = { skill: '', skill_hash: '', resumed_with: [] as string[] };
  // a step re-executed on resume (a world-purity read) is recorded again at its position: count its last record
  const last = new Map<string, number>();
  const keyOf = (e: RunEvent) => (typeof e.data.position === 'string' ? e.data.position : `#${e.seq}`);
  events.forEach((e, i) => e.type === EVENT.stepCompleted && last.set(keyOf(e), i));
  // the calls pre-tool stages denied, where they would have been recorded
  const deniedCalls = new Set<string>();
  const absorbed = absorbedFailures(events);
  for (const [i, e] of events.entries()) {
    const d = e.data;
    if (e.type === EVENT.runStarted) {
      version.skill = String(d.skill ?? '');
      version.skill_hash = String(d.skillHash ?? '');
    }
    if (e.type === EVENT.runResumed) {
      if (typeof d.skillHash === 'string' && d.skillHash !== version.skill_hash && !version.resumed_with.includes(d.skillHash)) version.resumed_with.push(d.skillHash);
    }
    // the folders the run executed from: its start's, a queued run's admission's, any resume's (provenance.ts)
    if (EXECUTES_FROM.has(e.type) && typeof d.bundleDir === 'string') roots.push(d.bundleDir);
    if (e.type === EVENT.runCompleted || e.type === EVENT.runFailed || e.type === EVENT.runAborted) end = e;
    if (e.type !== EVENT.stepCompleted || last.get(keyOf(e)) !== i) continue;
    const kind = String(d.kind);
    if (kind === 'model' || kind === 'tool' || kind === 'stage' || kind === 'processor') counts[kind]++;
    if (kind === 'processor') bump(counts.processor_by_status, String(d.status));
    if (kind === 'stage') bump(counts.stage_by_status, String(d.status));
    if (kind === 'tool') bump(counts.tool_by_status, String(d.status));
    if (kind === 'model') rounds++;
    if (isJsonObject(d.recorded) && (kind === 'model' || kind === 'tool' || kind === 'stage' || kind === 'processor')) reused[kind]++;
    if (kind === 'tool' && (d.op === 'file/write' || d.op === 'workspace/write') && isJsonObject(d.output) && typeof d.output.path === 'string') {
      changed.add(d.op === 'file/write' ? d.output.path : `workspace:${d.output.path}`);
    }
    if (kind === 'processor' && d.status === 'failed' && !failedStep && !absorbed.has(String(d.position))) {
      const err = isJsonObject(d.output) && isJsonObject(d.output.error) ? d.output.error : null;
      failedStep = {
        phase: String(d.phase),
        position: String(d.position),
        index: Number(d.index),
        type: String(d.type),
        on_error: String(d.onError ?? 'fail'),
        error: String(err?.message ?? 'failed').split('\n')[0],
        raw: err,
      };
    }
    if (kind === 'stage') {
      for (const p of deniedCallPositions(d)) deniedCalls.add(p);
      const out = isJsonObject(d.output) ? d.output : {};
      const contribution = isJsonObject(out.contribution) ? out.contribution : {};
      if (Array.isArray(contribution.annotations)) annotations += contribution.annotations.length;
      if (d.status === 'failed' && !failedStage) {
        failedStageError = isJsonObject(out.error) ? out.error : null;
        failedStage = {
          phase: String(d.phase),
          rung: String(d.rung),
          stage: String(d.stage),
          capability: String(d.capability),
          round: Number(d.round),
          error: String(failedStageError?.message ?? 'failed').split('\n')[0],
          position: String(d.position),
        };
      }
      if (isJsonObject(contribution.deny) && !blockedBy) {
        const [call, reason] = Object.entries(contribution.deny)[0] ?? [];
        if (typeof reason === 'string') blockedBy = { stage: String(d.stage), position: String(d.position), call: Number(call), reason };
      }
    }
  }
  for (const p of deniedCalls) {
    if (last.has(p)) continue; // recorded after all (never, unless a log was written otherwise)
    counts.tool++;
    bump(counts.tool_by_status, 'denied');
  }
  const denied = blockedBy ? `stage ${blockedBy.stage} denied a tool call: ${blockedBy.reason}` : null;
  let outcome: RunReport['outcome'] = 'succeeded';
  let reason: string | null = null;
  const err = end && isJsonObject(end.data.error) ? end.data.error : null;
  const abortedBy = end?.type === EVENT.runAborted ? abortCauseOf(end.data, err, failedStep) : null;
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
  }
  const status: RunReport['status'] = !end ? 'running' : end.type === EVENT.runCompleted ? 'completed' : end.type === EVENT.runFailed ? 'failed' : 'aborted';
  // the root cause: the failed stage or step, else what the run ended with
  let error: RunReport['error'] = null;
  if (status === 'failed' || (status === 'aborted' && abortedBy?.by !== 'request')) {
    const cause = failedStage ? failedStageError : failedStep && abortedBy?.by === 'step' ? failedStep.raw : err;
    const info = errorInfo(cause ?? err ?? undefined, roots);
    if (info) error = { ...info, position: failedStage?.position ?? (abortedBy?.by === 'step' ? abortedBy.position : null) };
  }
  const attention: RunReport['attention'] =
    status === 'failed' ? 'failed' : status === 'aborted' ? (abortedBy?.by === 'request' ? null : 'aborted') : status === 'completed' && blockedBy ? 'blocked' : null;
  const rel = (text: string) => relativeToBundle(text, roots);
  if (failedStage) failedStage.error = rel(failedStage.error);
  if (failedStep) failedStep.error = rel(failedStep.error);
  const report: Omit<RunReport, 'summary'> = {
    outcome,
    block_reason: reason === null ? null : rel(reason),
    failed_stage: failedStage,
    changed_paths: [...changed].sort(),
    step_counts: counts,
    rounds,
    annotations,
    status,
    failed_step: failedStep && abortedBy?.by === 'step' ? stripRaw(failedStep) : status === 'failed' && failedStep ? stripRaw(failedStep) : null,
    error,
    aborted_by: abortedBy,
    blocked_by: status === 'completed' ? blockedBy : null,
    needs_attention: attention !== null,
    attention,
    version,
    reused,
  };
  return merged(report, { summary: summarize(report, reused) });
}

function stripRaw(s: RunReport['failed_step'] & { raw: JsonObject | null }): RunReport['failed_step'] {
  const { raw: _raw, ...rest } = s;
  return rest;
}

/** What ended an aborted run; a log written before the abort was recorded says it in its error. */
function abortCauseOf(data: JsonObject, err: JsonObject | null, failedStep: { phase: string; position: string; index: number; type: string; on_error: string } | null): AbortCause {
  if (isJsonObject(data.abort)) return data.abort as unknown as AbortCause;
  const message = String(err?.message ?? '');
  if (message.startsWith('aborted on request')) return { by: 'request', reason: message.replace(/^aborted on request:\s*/, ''), requestedBy: 'unknown' };
  if (failedStep) return { by: 'step', phase: failedStep.phase, position: failedStep.position, index: failedStep.index, type: failedStep.type, onError: 'fail' };
  return { by: 'contract', phase: typeof err?.phase === 'string' ? err.phase : null };
}

export type ReusedCounts = { model: number; tool: number; stage: number; processor: number };

/**
 * What the run did, count by count, each with how many of it were answered from a recording, said
 * as the run page's Model rounds card says it: `7 model rounds (all 7 reused from the recording), 3
 * tool calls (2 reused), 4 stages, 0 processor steps`. The first note names the recording; the later
 * ones are short. A run that reused nothing says the counts alone.
 */
function didText(c: RunReport['step_counts'], reused: ReusedCounts): string {
  let named = false;
  const count = (kind: keyof ReusedCounts, one: string) => {
    const n = Math.min(reused[kind], c[kind]);
    if (!n) return plural(c[kind], one);
    const note = `${partOf(n, c[kind])} reused${named ? '' : ' from the recording'}`;
    named = true;
    return `${plural(c[kind], one)} (${note})`;
  };
  return [count('model', 'model round'), count('tool', 'tool call'), count('stage', 'stage'), count('processor', 'processor step')].join(', ');
}

/** One sentence that says what happened, from the facts above. */
function summarize(r: Omit<RunReport, 'summary'>, reused: ReusedCounts): string {
  const did = didText(r.step_counts, reused);
  const first = (s: string | null | undefined) => String(s ?? '').split('\n')[0];
  switch (r.status) {
    case 'running':
      return `Running: ${did} so far.`;
    case 'completed':
      if (r.blocked_by) return `Completed, but blocked: ${deniedCallWords(r.blocked_by)}.`;
      return `Completed: ${did}.`;
    case 'failed':
      if (r.failed_stage) {
        const f = r.failed_stage;
        return `Failed: stage ${f.stage} (capability ${f.capability}) crashed on the ${f.rung} rung of ${f.phase}, round ${f.round}: ${f.error}`;
      }
      return `Failed: ${first(r.error?.message ?? r.block_reason)}`;
    case 'aborted': {
      const a = r.aborted_by;
      if (a?.by === 'request') return `Aborted on request by ${a.requestedBy}: ${a.reason}`;
      if (a?.by === 'step') {
        const where = a.phase === '__post__' ? 'postprocessor' : `phase ${a.phase} preprocessor`;
        return `Aborted by ${where} step ${a.position} (${a.type}, on_error: ${a.onError}): ${r.failed_step?.error ?? first(r.error?.message)}`;
      }
      return `Aborted: ${first(r.error?.message ?? r.block_reason)}`;
    }
  }
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

