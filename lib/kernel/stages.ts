/**
 * Running one rung of the ladder inside a run: binds each stage to its handler
 * (a test overlay, a builtin, or a module capability run in the sandbox),
 * memoizes the handler's contribution as a step, records one `step_completed`
 * event per stage with its StageTrace, then applies rule 4
 * (`requireNoCrashedStage`).
 *
 * In a replay every stage really runs; in a fork a stage before the fork
 * point is answered from the parent's recording (step.ts, recording.ts).
 *
 * Builtin stages are pure functions and group-commit; a module capability is
 * user code we cannot prove pure, so its step commits before the next one.
 * What a module capability printed when its call returned ends its record
 * (`stdout` / `stderr`, as a code step's): never part of its output, its key
 * or a replay's comparison, and absent when it printed nothing.
 *
 * Owns: the per-rung glue between the dispatcher and the run. Does not: apply
 * contributions (the phase runner does) or decide grants (the plan does; they
 * are passed explicitly, never defaulted).
 */
import { DeterminismError, StepFailedError } from './errors';
import type { Json, JsonObject } from './json';
import type { Rung, StageSpec } from './plan';
import type { RunContext } from './context';
import { StageDispatcher, requireNoCrashedStage, type StageResult } from './dispatcher';
import { BUILTIN_HANDLERS } from './builtins/handlers';
import { makeArtifact } from './ops/execute';
import type { Contribution, StageContext } from './stage-types';
import type { CodeCall, PrintedOutput } from './ports';
import { actsOnWorld, beginStep, lookupMemo, recordAnswer, recordStep, untilAbortRequested, type MemoLookup, type StepDef } from './step';
import { isInfrastructureError } from './faults';
import { startCodeCall } from './start-call';
import { hashJson } from './memo';

export const CAPABILITY_TIMEOUT_MS = 10_000;

export type RungCall = {
  rung: Rung;
  phase: string;
  /** position prefix of the round, e.g. `draft/r2` */
  prefix: string;
  round: number;
  /** the rung-specific part of the context */
  context: Partial<StageContext>;
};

/** Whether the stage program has a stage on `rung`: when not, runRung would do nothing (callers skip it, and building its context) */
export function hasRung(ctx: Pick<RunContext, 'plan'>, rung: RungCall['rung']): boolean {
  return ctx.plan.stageProgram.some((s) => s.rung === rung);
}

export async function runRung(ctx: RunContext, call: RungCall): Promise<StageResult[]> {
  if (!hasRung(ctx, call.rung)) return [];
  const program = ctx.plan.stageProgram;
  const looks = new Map<string, { def: StepDef; look: MemoLookup }>();
  // what a module capability printed, by stage: its call's, set once the call returned (record() ends its record with it)
  const printedBy = new Map<string, PrintedOutput>();
  // The memo input of a stage is its context; the growing parts (transcript,
  // messages, evidence) are hashed once per rung rather than once per stage.
  const digest = digestContext(call.context);
  const contextFor = (stage: StageSpec): StageContext => ({
    runId: ctx.runId,
    phase: call.phase,
    round: call.round,
    rung: call.rung,
    stage: stage.name,
    with: stage.with,
    ...call.context,
  });
  const defFor = (stage: StageSpec): StepDef => ({
    kind: 'stage',
    phase: call.phase,
    position: `${call.prefix}/${call.rung}/${stage.name}`,
    definition: { stage: stage.name, rung: stage.rung, binding: stage.binding, effects: stage.effects, with: stage.with },
    input: { ...digest, stage: stage.name, with: stage.with },
    pure: stage.binding.kind === 'builtin' && !ctx.deps.handlers?.[stage.name],
    label: { stage: stage.name, capability: stage.capability, rung: stage.rung, round: call.round },
  });
  // the dispatcher turns whatever a stage throws into a failed trace; what stops the run (a replay
  // that cannot go on, a fork probe at its point, a determinism error) must not become one
  let escaped: unknown = null;
  const invoke = async (stage: StageSpec, sctx: StageContext, startedAt: number): Promise<Contribution | undefined> => {
    const def = defFor(stage);
    let look: MemoLookup;
    try {
      look = lookupMemo(ctx, def);
    } catch (e) {
      if (isInfrastructureError(e)) escaped ??= e;
      throw e;
    }
    looks.set(stage.name, { def, look });
    if (look.hit) {
      const out = look.hit.output as JsonObject;
      if (look.hit.status === 'failed') throw new Error(String((out.error as JsonObject | undefined)?.message ?? 'stage failed'));
      return (out.contribution ?? {}) as Contribution;
    }
    await beginStep(ctx, actsOnWorld(def));
    return untilAbortRequested(ctx, invokeHandler(ctx, stage, sctx, printedBy), def, startedAt);
  };
  // each stage is recorded before the next one is entered: a module capability is user code with
  // possible effects, so a crash on the rung must not lose a stage that already ran
  const record = async (r: StageResult): Promise<void> => {
    if (escaped) throw escaped;
    const entry = looks.get(r.stage.name) ?? (() => {
      const def = defFor(r.stage);
      return { def, look: lookupMemo(ctx, def) };
    })();
    if ((entry.look.hit && !entry.look.fromRecording) || (r.trace.status === 'refused' && ctx.memo.has(entry.def.position))) return;
    const output: JsonObject = r.trace.status === 'failed'
      ? { error: r.trace.error as unknown as Json }
      : { contribution: (r.trace.status === 'ok' ? r.contribution : {}) as unknown as Json };
    // a post-tool stage's kept full texts commit with the stage's own step
    const artifacts = Object.entries(r.contribution.workspace ?? {}).map(([p, content]) => makeArtifact(ctx, p, content));
    // what the trace says beyond the contribution, so the log alone tells what the stage did: the
    // grants it had or lacked, and the keys of its contribution that were not applied (and why)
    const e = r.trace.effects;
    const label = {
      ...entry.def.label,
      ...(e.missing.length ? { granted: e.granted, missing: e.missing } : {}),
      ...(r.trace.notApplied.length ? { notApplied: r.trace.notApplied } : {}),
    };
    if (entry.look.fromRecording) {
      await recordAnswer(ctx, { ...entry.def, label }, entry.look, { traces: [r.trace], artifacts });
      return;
    }
    const executed = { output, status: r.trace.status, traces: [r.trace], artifacts };
    // a stage that printed has its own shape; one that did not hands what it always did
    const printed = printedBy.get(r.stage.name);
    await recordStep(ctx, { ...entry.def, label, pure: entry.def.pure && r.trace.status === 'ok' }, entry.look, printed ? { ...executed, printed } : executed, r.trace.durationMs);
  };
  const dispatcher = new StageDispatcher(invoke, ctx.deps.clock, ctx.deps.ids);
  const results = await dispatcher.runPhase(program, call.rung, contextFor, ctx.plan.effectGrants, {
    runId: ctx.runId,
    phase: call.phase,
    round: call.round,
  }, record);
  requireNoCrashedStage(results, call.phase);
  return results;
}

/**
 * Before a resume re-enters a phase visit (`prefix`, e.g. `draft/` or `draft#2/`): every stage the
 * run recorded in that visit must still be on the same rung of the skill. A stage removed, renamed
 * or moved since would otherwise be dropped silently (its contribution and effects with it), or run
 * again elsewhere. Checked up front, before anything runs: a moved stage must not run its code, nor
 * cause a new model call, before the resume stops. A refused stage never ran and contributed
 * nothing, so dropping it changes nothing; a changed stage shows as a changed definition when its
 * position is reached.
 */
export function requireRecordedStagesInPlan(ctx: RunContext, prefix: string): void {
  // called before the visit runs anything: the memo holds exactly what the log recorded
  for (const m of ctx.memo.values()) {
    if (m.kind !== 'stage' || m.status === 'refused' || !m.position.startsWith(prefix)) continue;
    const d = (m.definition ?? {}) as { stage?: unknown; rung?: unknown };
    if (ctx.plan.stageProgram.some((s) => s.name === d.stage && s.rung === d.rung)) continue;
    throw DeterminismError.recorded(ctx.runId, 'stage', m, `no stage ${String(d.stage)} on the ${String(d.rung)} rung`, null);
  }
}

const BULKY = ['transcript', 'messages', 'evidence'] as const;

/** A stage's memo input is its context with the growing parts hashed (rebuild.ts checks rebuilt contexts against it). */
export function digestContext(c: Partial<StageContext>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(c)) {
    if (v === undefined) continue;
    out[k] = (BULKY as readonly string[]).includes(k) ? hashJson(v) : (v as Json);
  }
  return out;
}

/** `printedBy`: told what a module capability printed, by stage name, when its call returned and printed anything */
async function invokeHandler(ctx: RunContext, stage: StageSpec, sctx: StageContext, printedBy: Map<string, PrintedOutput>): Promise<Contribution | undefined> {
  const overlay = ctx.deps.handlers?.[stage.name];
  if (overlay) return (await overlay(sctx)) ?? undefined;
  const b = stage.binding;
  if (b.kind === 'builtin') {
    const h = BUILTIN_HANDLERS[b.name];
    if (!h) throw new StepFailedError('unknown_builtin', `builtin capability "${b.name}" does not exist`);
    return (await h(sctx)) ?? undefined;
  }
  const call: CodeCall = {
    language: 'node',
    modulePath: b.modulePath,
    exportName: b.exportName,
    input: sctx as unknown as Json,
    timeoutMs: CAPABILITY_TIMEOUT_MS,
  };
  // prepared, where the sandbox can: what the call printed is known once it returns (PreparedCall.printed)
  const { reply, prepared } = startCodeCall(ctx, call);
  const out = await reply;
  if (prepared?.printed) printedBy.set(stage.name, prepared.printed);
  if (out === null || out === undefined) return undefined;
  if (typeof out !== 'object' || Array.isArray(out)) {
    throw new Error(`capability ${b.module}#${b.exportName} returned ${Array.isArray(out) ? 'an array' : typeof out}; return an object (the contribution) or nothing`);
  }
  return out as Contribution;
}

