/**
 * One dispatch for every memoized step: processor steps, tool calls, model
 * turns and stages all pass through `runStep`, emit `step_completed` with
 * their output, and take part in the memo.
 *
 * The rule (seed, postprocessor Resume): a step whose key is recorded is not
 * executed again — its recorded output is used — except world-purity reads,
 * which re-execute. A recorded position whose definition differs is a
 * `DeterminismError` naming the step and both definitions.
 *
 * Durability: `pure` steps are group-committed (a crash re-runs them, which
 * is harmless); anything else commits before the next step starts, so a
 * crash repeats at most the one step in flight. A world read is group-committed
 * too, but the commit holding it goes to disk (journal.ts `observed`).
 *
 * An output over MAX_VALUE_CHARS is never recorded (value-size.ts): processor
 * steps fail on it where on_error applies; any other step fails here.
 *
 * Does not: decide on_error policies (processors.ts) or what a step does.
 */
import { DeterminismError, RunReleasedError } from './errors';
import { EVENT, type StepKind } from './events';
import type { Json, JsonObject } from './json';
import type { MemoEntry, StageTrace, WorkspaceArtifact } from './ports';
import { definitionHash, memoKey } from './memo';
import type { RunContext } from './context';
import { tooLarge, valueFits } from './value-size';

export type StepDef = {
  kind: StepKind;
  phase: string;
  position: string;
  /** what the step is (compared on resume) */
  definition: Json;
  /** what it was given (part of the key) */
  input: Json;
  /** may be group-committed and re-run after a crash */
  pure: boolean;
  /** reads the world: re-executed on resume */
  worldPurity?: boolean;
  /** shown in the log (index, type, round, op …) */
  label?: JsonObject;
};

export type StepExecution = {
  output: Json;
  status?: string;
  traces?: StageTrace[];
  artifacts?: WorkspaceArtifact[];
};

export type StepResult = { output: Json; status: string; replayed: boolean; seq: number };

export type MemoLookup = { hit: MemoEntry | null; key: string; defHash: string };

export function lookupMemo(ctx: RunContext, def: StepDef): MemoLookup {
  const defHash = definitionHash(def.definition);
  const key = memoKey(def.phase, def.position, defHash, def.input);
  const rec = ctx.memo.get(def.position);
  if (!rec) return { hit: null, key, defHash };
  if (rec.defHash !== defHash) {
    throw DeterminismError.recorded(ctx.runId, 'step', rec, `${JSON.stringify(def.definition)} there`, def.definition);
  }
  return { hit: rec.key === key && !def.worldPurity ? rec : null, key, defHash };
}

/**
 * A step is about to execute: commit what must precede it, then the fault point. A driver told to
 * let go of the run stops here, between steps: the step in flight has finished and is committed.
 */
export async function beginStep(ctx: RunContext): Promise<void> {
  await ctx.journal.beforeStep();
  const signal = ctx.deps.signal;
  if (signal?.aborted) throw new RunReleasedError(ctx.runId, String(signal.reason instanceof Error ? signal.reason.message : (signal.reason ?? 'asked to stop')));
  ctx.faults.hit('before-step');
}

export async function runStep(
  ctx: RunContext,
  def: StepDef,
  exec: () => Promise<StepExecution>,
): Promise<StepResult> {
  const look = lookupMemo(ctx, def);
  if (look.hit) return { output: look.hit.output, status: look.hit.status, replayed: true, seq: look.hit.seq };
  await beginStep(ctx);
  const started = ctx.deps.clock.now();
  const r = await exec();
  return recordStep(ctx, def, look, r, ctx.deps.clock.now() - started);
}

export async function recordStep(
  ctx: RunContext,
  def: StepDef,
  look: Pick<MemoLookup, 'key' | 'defHash'>,
  r: StepExecution,
  durationMs: number,
): Promise<StepResult> {
  const status = r.status ?? 'ok';
  // processor steps were checked where on_error could apply; a tool's, a stage's or a model turn's output is checked here
  if (!valueFits(r.output)) throw tooLarge(`the ${def.kind} step at ${def.position}: its output holds`);
  const data: JsonObject = {
    ...(def.label ?? {}),
    kind: def.kind,
    phase: def.phase,
    position: def.position,
    key: look.key,
    defHash: look.defHash,
    definition: def.definition,
    status,
    output: r.output,
    durationMs,
  };
  const durability = !def.pure ? 'step' : def.worldPurity ? 'observed' : 'group';
  const ev = await ctx.journal.append(EVENT.stepCompleted, data, durability, {
    traces: r.traces,
    artifacts: r.artifacts,
  });
  ctx.log.push(ev);
  const entry: MemoEntry = {
    seq: ev.seq,
    position: def.position,
    key: look.key,
    defHash: look.defHash,
    definition: def.definition,
    kind: def.kind,
    status,
    output: r.output,
  };
  ctx.memo.set(def.position, entry);
  return { output: r.output, status, replayed: false, seq: ev.seq };
}
