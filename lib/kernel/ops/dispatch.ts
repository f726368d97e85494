/**
 * Tool dispatch: the one path by which an op runs, whether the model called
 * it or a processor's `run_op` did — gate, then a memoized step.
 *
 * Reads (`file/read`, `workspace/read`, `http/get`) are pure and world-purity
 * ops are re-executed on resume; every other op commits before the next step.
 * In a replay or a fork the call may be answered from the parent's recording
 * instead (recording.ts says when).
 *
 * Owns: gating + memo for ops. Does not: turn failures into outcomes for the
 * model (the phase runner does) or apply on_error (processors.ts).
 */
import type { Json, JsonObject } from '../json';
import type { RunContext } from '../context';
import { runStep } from '../step';
import { gateOp, type Caller } from './gate';
import { executeOp, makeArtifact } from './execute';
import { atForkInput } from '../recording';
import { objectCheck } from '../fork-edits';
import { getOp } from './registry';
import { StepFailedError, errorToJson } from '../errors';
import { isInfrastructureError } from '../faults';

const PURE_OPS = new Set(['file/read', 'workspace/read', 'http/get']);

export async function dispatchOp(
  ctx: RunContext,
  req: { op: string; args: JsonObject; caller: Caller; position: string; label?: JsonObject },
): Promise<Json> {
  gateOp(ctx.plan, req.op, req.caller);
  const def = getOp(req.op)!;
  const args = req.args;
  const r = await runStep(
    ctx,
    {
      kind: 'tool',
      phase: req.caller.phase,
      position: req.position,
      definition: { op: req.op },
      input: args,
      pure: PURE_OPS.has(req.op),
      worldPurity: def.worldPurity,
      label: { op: req.op, ...(req.label ?? {}) },
      // answered from a recording, a workspace write still leaves its artifact in this run's workspace
      answerArtifacts: req.op === 'workspace/write' && typeof args.path === 'string' ? () => [makeArtifact(ctx, args.path as string, args.content ?? null)] : undefined,
    },
    async () => {
      try {
        const res = await executeOp(ctx, req.op, req.args, req.position);
        return { output: res.data, artifacts: res.artifacts };
      } catch (e) {
        if (isInfrastructureError(e)) throw e;
        // a failed op is recorded too: on resume its outcome is replayed, so what follows stays the same
        return { output: { error: errorToJson(e) }, status: 'error' };
      }
    },
  );
  if (r.status === 'error') {
    const e = (r.output as { error?: { code?: string; message?: string } }).error ?? {};
    throw new StepFailedError(e.code ?? 'op_failed', e.message ?? `op ${req.op} failed`, { op: req.op });
  }
  // every op outcome is evidence (what post-model checks read), replayed or not
  ctx.evidence.push(typeof r.output === 'string' ? r.output : JSON.stringify(r.output));
  return r.output;
}

/** A fork point at a call's arguments (the model's, after pre-tool; a run_op's, rendered): the edited ones replace them. */
export function forkedArgs(ctx: RunContext, op: string, position: string, args: JsonObject): Promise<JsonObject> {
  return atForkInput(ctx, position, args, objectCheck(`the arguments of ${op}`, getOp(op)?.args));
}
