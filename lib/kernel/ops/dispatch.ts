/**
 * Tool dispatch: the one path by which an op runs, whether the model called
 * it or a processor's `run_op` did — gate, then a memoized step.
 *
 * Reads (`file/read`, `workspace/read`, `http/get`) are pure and world-purity
 * ops are re-executed on resume; every other op commits before the next step.
 * In a replay or a fork the call may be answered from the parent's recording
 * instead (recording.ts says when). A model's call the gate refuses is recorded
 * too (status `refused`): what the model is told next round is then in the log,
 * and a resume answers it the same. Every ok outcome becomes evidence as it is
 * recorded (step.ts, evidence.ts).
 *
 * Owns: gating + memo for ops. Does not: turn failures into outcomes for the
 * model (the phase runner does) or apply on_error (processors.ts).
 */
import type { Json, JsonObject } from '../json';
import type { RunContext } from '../context';
import { lookupMemo, recordStep, runStep, type StepDef } from '../step';
import { isJsonObject } from '../json';
import { gateOp, type Caller } from './gate';
import { executeOp, makeArtifact } from './execute';
import { atForkInput } from '../recording';
import { objectCheck } from '../fork-edits';
import { getOp } from './registry';
import { GrantRefusedError, StepFailedError, errorToJson } from '../errors';
import { isInfrastructureError } from '../faults';

const PURE_OPS = new Set(['file/read', 'workspace/read', 'http/get']);

/**
 * A tool step's definition, one object per op name: its hash (memo.ts definitionHash, cached per
 * definition object) is then worked out once per op, not once per call. Never changed once built.
 */
const OP_DEFINITIONS = new Map<string, Json>();
/** a model may name any op (the gate refuses unknown ones): the cache keeps a bounded few */
const MAX_OP_DEFINITIONS = 1_000;
function opDefinition(op: string): Json {
  let d = OP_DEFINITIONS.get(op);
  if (d === undefined) {
    d = { op };
    if (OP_DEFINITIONS.size < MAX_OP_DEFINITIONS) OP_DEFINITIONS.set(op, d);
  }
  return d;
}

export async function dispatchOp(
  ctx: RunContext,
  req: { op: string; args: JsonObject; caller: Caller; position: string; label?: JsonObject },
): Promise<Json> {
  const args = req.args;
  const step: StepDef = {
    kind: 'tool',
    phase: req.caller.phase,
    position: req.position,
    definition: opDefinition(req.op),
    input: args,
    pure: PURE_OPS.has(req.op),
    worldPurity: getOp(req.op)?.worldPurity ?? false,
    label: { op: req.op, ...(req.label ?? {}) },
    // answered from a recording, a workspace write still leaves its artifact in this run's workspace
    answerArtifacts: req.op === 'workspace/write' && typeof args.path === 'string' ? () => [makeArtifact(ctx, args.path as string, args.content ?? null)] : undefined,
  };
  try {
    gateOp(ctx.plan, req.op, req.caller);
  } catch (e) {
    // a model's call the gate refused is what the model is told next round: the log says so (a
    // processor's run_op fails its step instead, which records it)
    if (e instanceof GrantRefusedError && req.caller.kind === 'model') await recordRefusal(ctx, step, e);
    throw e;
  }
  const r = await runStep(ctx, step, async () => {
    try {
      const res = await executeOp(ctx, req.op, req.args, req.position);
      return { output: res.data, artifacts: res.artifacts };
    } catch (e) {
      if (isInfrastructureError(e)) throw e;
      // a failed op is recorded too: on resume its outcome is replayed, so what follows stays the same
      return { output: { error: errorToJson(e) }, status: 'error' };
    }
  });
  if (r.status === 'refused') throw new GrantRefusedError(errorMessageOf(r.output, `op ${req.op} was refused`), { op: req.op });
  if (r.status === 'error') {
    const e = (r.output as { error?: { code?: string; message?: string } }).error ?? {};
    throw new StepFailedError(e.code ?? 'op_failed', e.message ?? `op ${req.op} failed`, { op: req.op });
  }
  return r.output;
}

/** A fork point at a call's arguments (the model's, after pre-tool; a run_op's, rendered): the edited ones replace them. */
export function forkedArgs(ctx: RunContext, op: string, position: string, args: JsonObject): Promise<JsonObject> {
  return atForkInput(ctx, position, args, objectCheck(`the arguments of ${op}`, getOp(op)?.args));
}

/** Records a refused call once (a resume that meets it again finds it in the memo). */
async function recordRefusal(ctx: RunContext, step: StepDef, e: GrantRefusedError): Promise<void> {
  const look = lookupMemo(ctx, step);
  if (ctx.memo.get(step.position)?.key === look.key) return;
  await recordStep(ctx, { ...step, pure: true, worldPurity: false }, look, { output: { error: errorToJson(e) }, status: 'refused' }, 0);
}

function errorMessageOf(output: Json, fallback: string): string {
  const e = isJsonObject(output) && isJsonObject(output.error) ? output.error : null;
  return typeof e?.message === 'string' ? e.message : fallback;
}
