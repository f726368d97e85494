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
 * A derived run (a replay, a fork) has a second memo, its parent's recording
 * (recording.ts): a step its own log does not answer is asked of it, and an
 * answer from there is written to this run's log, marked as recorded.
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
import { EVENT, type StepCompletedData, type StepKind } from './events';
import type { Json, JsonObject } from './json';
import { merged } from './json';
import type { MemoEntry, PrintedOutput, StageTrace, WorkspaceArtifact } from './ports';
import { definitionHash, memoKey } from './memo';
import { memoKeyTurning } from './memo-large';
import type { RunContext } from './context';
import { MAX_VALUE_CHARS, tooLarge, valueFits } from './value-size';
import { consultRecording, markStepAtForkPoint } from './recording';
import { SignalSets } from './signal-sets';
import { printedFields, stepHead, withTail, type StepHead } from './data-text';

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
  /**
   * a model turn answered locally (ModelPort.local): not pure (its answer is kept, never asked
   * again), but a run not recorded yet need not be recorded before it (actsOnWorld)
   */
  local?: boolean;
  /** shown in the log (index, type, round, op …) */
  label?: JsonObject;
  /** what the step leaves in the workspace when it is answered from a recording instead of executed */
  answerArtifacts?: () => WorkspaceArtifact[];
};

export type StepExecution = {
  output: Json;
  status?: string;
  traces?: StageTrace[];
  artifacts?: WorkspaceArtifact[];
  /** what a code step printed (PreparedCall.printed): recorded as `stdout` / `stderr` after its other members */
  printed?: PrintedOutput;
};

export type StepResult = { output: Json; status: string; replayed: boolean; seq: number };

/** `fromRecording`: the hit is the parent's recorded step, not yet in this run's log (`recordAnswer` writes it there) */
export type MemoLookup = { hit: MemoEntry | null; key: string; defHash: string; fromRecording?: boolean };

export function lookupMemo(ctx: RunContext, def: StepDef, known?: string): MemoLookup {
  const defHash = definitionHash(def.definition);
  const key = known ?? memoKey(def.phase, def.position, defHash, def.input);
  const rec = ctx.memo.get(def.position);
  if (rec) {
    if (rec.defHash !== defHash) {
      throw DeterminismError.recorded(ctx.runId, 'step', rec, `${JSON.stringify(def.definition)} there`, def.definition);
    }
    if (rec.key === key && !def.worldPurity) return { hit: rec, key, defHash };
  }
  if (!ctx.recording) return { hit: null, key, defHash };
  const answer = consultRecording(ctx, def, key, defHash);
  return answer ? { hit: answer, key, defHash, fromRecording: true } : { hit: null, key, defHash };
}

/** lookupMemo of a step whose input is known to be large (isLargeValue): its key made across turns of the event loop, the same key. */
export async function lookupLargeMemo(ctx: RunContext, def: StepDef): Promise<MemoLookup> {
  return lookupMemo(ctx, def, await memoKeyTurning(def.phase, def.position, definitionHash(def.definition), def.input));
}

/**
 * A step answered from the recording: written to this run's log as it was recorded there (not
 * executed), with where it came from. Pure as far as durability goes: a resume answers it again.
 */
export async function recordAnswer(ctx: RunContext, def: StepDef, look: MemoLookup, extra: Pick<StepExecution, 'traces' | 'artifacts'> = {}): Promise<StepResult> {
  const h = look.hit!;
  const point = ctx.recording?.point;
  const edited = point?.at === def.position && point.target === 'output';
  // a model turn reused as recorded keeps the model that answered it (an edited one is the fork's own)
  const answeredBy = def.kind === 'model' && !edited ? ctx.recording?.models.get(def.position) : undefined;
  const label: JsonObject = merged(def.label ?? {}, { recorded: { runId: ctx.recording?.runId ?? null, seq: h.seq }, ...(edited ? { edited: true } : {}), ...(answeredBy ? { model: answeredBy } : {}) });
  const r = await recordStep(
    ctx,
    { ...def, pure: true, worldPurity: false, label },
    look,
    { output: h.output, status: h.status, traces: extra.traces, artifacts: extra.artifacts ?? def.answerArtifacts?.() },
    0,
  );
  return { ...r, replayed: true };
}

/**
 * A step is about to execute: commit what must precede it, then the fault point. A driver told to
 * let go of the run stops here, between steps: the step in flight has finished and is committed.
 * `actsOnWorld` (default true): the step may act on the world, so a run not recorded yet is
 * recorded first (journal.ts deferCreation); pure work and model turns may precede the record.
 */
export async function beginStep(ctx: RunContext, actsOnWorld = true): Promise<void> {
  await ctx.journal.beforeStep(actsOnWorld);
  // a user asked for the run to be aborted: nothing more runs
  if (ctx.abort?.signal.aborted) throw ctx.abort.signal.reason;
  const signal = ctx.deps.signal;
  if (signal?.aborted) throw new RunReleasedError(ctx.runId, String(signal.reason instanceof Error ? signal.reason.message : (signal.reason ?? 'asked to stop')));
  ctx.faults.hit('before-step');
}

/**
 * A step before which the run must be recorded: anything but pure work. A model call counts: it is
 * paid for and may take minutes, and while it runs the run must be seen (in `stagecraft runs`, the
 * app) and can be aborted — a run that is in no store can be neither. A local model's turn does
 * not (`local`: a script or a recording answers at once, nothing paid, nothing to see or abort).
 */
export function actsOnWorld(def: Pick<StepDef, 'pure' | 'kind' | 'local'>): boolean {
  return !def.pure && !def.local;
}

export async function runStep(
  ctx: RunContext,
  def: StepDef,
  exec: () => Promise<StepExecution>,
): Promise<StepResult> {
  // the last step's commit travels while this one is looked up (it starts once that commit is durable: beginStep)
  if (ctx.journal.sendAhead()) await Promise.resolve();
  const look = lookupMemo(ctx, def);
  if (look.hit) return look.fromRecording ? recordAnswer(ctx, def, look) : { output: look.hit.output, status: look.hit.status, replayed: true, seq: look.hit.seq };
  await beginStep(ctx, actsOnWorld(def));
  const started = ctx.deps.clock.now();
  let r: StepExecution;
  try {
    r = await untilAbortRequested(ctx, exec(), def, started);
  } catch (e) {
    // nothing records a step that threw (a model call that failed): the run's error says where it was
    ctx.failedAt = def.position;
    throw e;
  }
  return recordStep(ctx, def, look, r, ctx.deps.clock.now() - started);
}

/**
 * The step's execution, or the abort request that cut it short: a request rejects at once with
 * AbortRequestedError (what the step was doing is stopped through the same signal: its worker
 * killed, its model call aborted), and whatever the step would still return is never recorded.
 */
export function untilAbortRequested<T>(
  ctx: AbortScope,
  work: Promise<T>,
  /** the step in flight and when it started: an abort that cuts it short names it in the run's error (`ctx.cutShort`) */
  step: Pick<StepDef, 'position' | 'kind'>,
  started: number,
): Promise<T> {
  const signal = ctx.abort?.signal;
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    // a record, not a closure: a step makes no function of its own to be rejected by
    const waiter: Waiter = { work, reject, ctx, step, started };
    WAITERS.add(signal, waiter);
    work.then(
      (v) => {
        WAITERS.delete(signal, waiter);
        resolve(v);
      },
      (e) => {
        WAITERS.delete(signal, waiter);
        reject(e);
      },
    );
  });
}

/** what a step's wait reads of its run: the abort port, and where the step cut short is kept */
type AbortScope = Pick<RunContext, 'abort' | 'cutShort'> & { deps: Pick<RunContext['deps'], 'clock'> };

/** a step in flight: the work it waits for (its late failure then ignored) and how to reject it */
type Waiter = {
  work: Promise<unknown>;
  reject: (reason: unknown) => void;
  ctx: AbortScope;
  step: Pick<StepDef, 'position' | 'kind'>;
  started: number;
};
const ignore = () => undefined;

/** The steps in flight that an abort of their signal rejects, in the order they started (signal-sets.ts). */
const WAITERS = new SignalSets<Waiter>((w, signal) => {
  w.work.catch(ignore);
  // the first step in flight is the one named (a nested one started after it: a stage's own call)
  w.ctx.cutShort ??= { position: w.step.position, kind: w.step.kind, ranMs: w.ctx.deps.clock.now() - w.started };
  w.reject(signal.reason);
});

/** the options a port call gets: the signal of the run's abort request, where one can come */
export function callOptions(ctx: Pick<RunContext, 'abort'>): { signal?: AbortSignal } {
  return ctx.abort ? { signal: ctx.abort.signal } : {};
}

/**
 * The members of `def`'s record that precede its result, and their JSON text (data-text.ts): built
 * while its call is in flight, handed to recordStep with the result (for that `def` and `look` only).
 */
export function recordHead(def: StepDef, look: Pick<MemoLookup, 'key' | 'defHash'>): StepHead | null {
  return stepHead(merged(def.label ?? {}, { kind: def.kind, phase: def.phase, position: def.position, key: look.key, defHash: look.defHash, definition: def.definition }));
}

/** `head`: recordHead(def, look), made while the step ran */
export async function recordStep(
  ctx: RunContext,
  def: StepDef,
  look: Pick<MemoLookup, 'key' | 'defHash'>,
  r: StepExecution,
  durationMs: number,
  head?: StepHead | null,
): Promise<StepResult> {
  const status = r.status ?? 'ok';
  // with a head, the record is made now (its text measures the output); without, or with an output too large, as ever
  const built = head ? withTail(head, status, r.output, durationMs, MAX_VALUE_CHARS, r.printed) : null;
  // processor steps were checked where on_error could apply; a tool's, a stage's or a model turn's output is checked here
  if (!built && !valueFits(r.output)) throw tooLarge(`the ${def.kind} step at ${def.position}: its output holds`, def.kind === 'model' ? 'model' : 'code');
  // (checked here, not in the callee: this is every step's path, and an await costs a promise)
  if (ctx.recording?.point?.at === def.position) await markStepAtForkPoint(ctx, def.position);
  // the label's fields first (merged: a spread then these members is slow when labels differ in shape)
  let data: JsonObject = built ?? merged(def.label ?? {}, {
    kind: def.kind,
    phase: def.phase,
    position: def.position,
    key: look.key,
    defHash: look.defHash,
    definition: def.definition,
    status,
    output: r.output,
    durationMs,
  });
  // what a code step printed ends its record (withTail put it there already); a step that printed nothing has no such member
  const shown = !built && r.printed ? printedFields(r.printed) : null;
  if (shown) data = merged(data, shown);
  const durability = !def.pure ? 'step' : def.worldPurity ? 'observed' : 'group';
  // the label's fields are the kind's (events.ts); lib/views/events.test.ts parses every recorded step
  const ev = await ctx.journal.append(EVENT.stepCompleted, data as unknown as StepCompletedData, durability, {
    traces: r.traces,
    artifacts: r.artifacts,
  });
  ctx.log.push(ev);
  if (def.kind === 'tool' && status === 'ok') ctx.evidence.record(def.position, r.output);
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
