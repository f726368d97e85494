/**
 * The processor runner: preprocessors (phase start) and the postprocessor
 * (skill end) share this one runner, one step vocabulary, one on_error policy
 * and one permission gate [seed]. They differ only in what flows in, the
 * schema the result must satisfy, and where they fire.
 *
 * The runner holds a current value (a JSON object); each step returns an
 * object shallow-merged into it, or stored under `into`. on_error: `fail`
 * aborts the skill (WorkflowAbortedError — no automatic resume), `skip` logs
 * and continues, `empty` writes the empty value of the `into` target's type.
 * After the last step the value is checked against the chain's contract; a
 * mismatch aborts like a failed step. A step's result over MAX_VALUE_CHARS of
 * JSON, or one that would make the value so large, is that step's failure
 * (ValueTooLargeError), so on_error applies to it as to any other.
 *
 * Owns: the chain and its policies. Does not: know what a step type does
 * (processor-steps.ts) or how it is recorded (step.ts).
 */
import { DeterminismError, StagecraftError, StepFailedError, WorkflowAbortedError, errorToJson } from './errors';
import type { Json, JsonObject } from './json';
import { isJsonObject, merged } from './json';
import type { CodeStep, ProcessorPlan, StepSpec } from './plan';
import type { CodeCall, PreparedCall, PrintedOutput } from './ports';
import type { RunContext } from './context';
import { isLargeValue } from './memo-large';
import { actsOnWorld, beginStep, lookupLargeMemo, lookupMemo, recordAnswer, recordHead, recordStep, untilAbortRequested, type MemoLookup, type StepDef } from './step';
import { atForkInput, pendingForkPoint } from './recording';
import { startCodeCall } from './start-call';
import { objectCheck } from './fork-edits';
import { isInfrastructureError } from './faults';
import { checkSchema, formatSchemaErrors } from './schema-check';
import { executeProcessorStep, isPureStep, prepareCodeCall, readsWorld, stepDefinition } from './processor-steps';
import { MAX_VALUE_CHARS, requireMergeFits, requireValueFits, tooLarge, valueFits } from './value-size';
import type { StepHead } from './data-text';

export type ChainScope = {
  /** the phase name, or `__post__` */
  phase: string;
  /** position prefix, e.g. `draft/pre` or `__post__` */
  prefix: string;
  /** human name for messages */
  label: string;
  /** inside iterates: the path of the array each iterates, outermost first (each in its enclosing chain's value) */
  overs?: string[];
};

export async function runChain(ctx: RunContext, proc: ProcessorPlan, input: JsonObject, scope: ChainScope): Promise<JsonObject> {
  const value = await runSteps(ctx, proc.steps, input, scope.prefix, scope);
  const errors = checkSchema(proc.outputSchema, value);
  if (errors.length) {
    throw new WorkflowAbortedError(
      `${scope.label} result does not satisfy its contract: ${formatSchemaErrors(errors)}. Fix the steps so they produce what the schema requires, or relax the schema.`,
      { phase: scope.phase },
    );
  }
  return value;
}

export async function runSteps(
  ctx: RunContext,
  steps: readonly StepSpec[],
  input: JsonObject,
  prefix: string,
  scope: ChainScope,
): Promise<JsonObject> {
  let value: JsonObject = input;
  /** steps before this index run alone: their fused request failed as a whole */
  let aloneUntil = 0;
  /** the fused request of the run starting at `ahead.k`, sent while the run before it was recorded */
  let ahead: (FusedCall & { k: number }) | undefined;
  for (let k = 0; k < steps.length; ) {
    // the last step's commit travels while this one is worked out (it starts once that commit is durable: beginStep);
    // the microtasks the send queued run first, so that it is on the wire (journal.ts sendAhead)
    if (ctx.journal.sendAhead()) await Promise.resolve();
    // a fork point at this step's input: the edited value flows in (fork-edits.ts)
    const point = pendingForkPoint(ctx);
    if (point !== null) value = await atForkInput(ctx, `${prefix}/${steps[k].index}`, value, STEP_INPUT_CHECK);
    const run = k < aloneUntil ? [] : fusibleRun(steps, k, pendingForkPoint(ctx), prefix);
    let look: MemoLookup | undefined;
    if (run.length >= 2) {
      const sent = ahead && ahead.k === k && ahead.input === value && ahead.run.length === run.length ? ahead : undefined;
      const following = () => fusibleRun(steps, k + run.length, null, prefix);
      const done = await runFused(ctx, run, value, prefix, scope, sent, following);
      ahead = done.ahead && { ...done.ahead, k: k + run.length };
      value = done.value;
      k += done.count;
      // a fused run that stopped early stopped at a step that must run alone (it failed, or is in the memo)
      if (done.count === run.length) continue;
      if (done.failed) aloneUntil = k + run.length;
      look = done.next;
    }
    value = await runOneStep(ctx, steps[k], value, `${prefix}/${steps[k].index}`, scope, look);
    k++;
  }
  requireNoStepRecordedPast(ctx, prefix, steps.length);
  return value;
}

/**
 * On resume, a step recorded just past the chain's end means the skill lost steps since the run
 * recorded them (or the whole chain, `length` 0): finishing without it would silently drop what it
 * did (its output, its effect). A step changed or removed anywhere else shows up as a changed
 * definition at its position.
 */
export function requireNoStepRecordedPast(ctx: RunContext, prefix: string, length: number): void {
  const rec = ctx.memo.get(`${prefix}/${length}`);
  if (!rec) return;
  const end = length ? `the chain ends after ${length} step${length === 1 ? '' : 's'}` : 'the chain is gone';
  throw DeterminismError.recorded(ctx.runId, 'step', rec, `no step there (${end})`, null);
}

/** a processor step's input is the chain's current value: an object */
const STEP_INPUT_CHECK = objectCheck("a processor step's input");

/** at most this many pure code steps go to a worker in one request */
export const FUSE_MAX_STEPS = 256;
/** a fused request may take this many times its slowest step's timeout */
export const FUSED_TIMEOUT_FACTOR = 4;

/**
 * Consecutive pure code steps of one module, from `k`: they may run in one
 * worker request (their results are recorded one by one, as always).
 */
function fusibleRun(steps: readonly StepSpec[], k: number, forkPoint: string | null, prefix: string): CodeStep[] {
  const first = steps[k];
  if (!first || (first.type !== 'python' && first.type !== 'node') || !first.pure) return [];
  const run: CodeStep[] = [first];
  for (let j = k + 1; j < steps.length && run.length < FUSE_MAX_STEPS; j++) {
    const s = steps[j];
    if (s.type !== first.type || !s.pure || s.modulePath !== first.modulePath) break;
    // a fork point ahead is where the run departs from its parent: never inside a fused request
    if (forkPoint !== null && forkPoint === `${prefix}/${s.index}`) break;
    run.push(s);
  }
  return run;
}

/** A fused request sent: its steps, the value it was given and the worker's reply to come (`prepared`: what it printed, once it replied). */
type FusedCall = { run: CodeStep[]; input: JsonObject; reply: Promise<unknown>; prepared?: PreparedCall };

/** Sends `run` to a worker as one request; a reply no one reads (a request sent ahead, then not needed) rejects unheard. */
function sendFused(ctx: RunContext, run: CodeStep[], input: JsonObject): FusedCall {
  const call: CodeCall = {
    language: run[0].type,
    modulePath: run[0].modulePath,
    exportName: run[0].function,
    input,
    // the steps' budgets added up, but bounded: a request that times out is simply run again step by step
    timeoutMs: Math.min(
      run.reduce((sum, s) => sum + s.timeoutMs, 0),
      FUSED_TIMEOUT_FACTOR * Math.max(...run.map((s) => s.timeoutMs)),
    ),
    chain: run.map((s) => ({ exportName: s.function, into: s.into ?? null })),
  };
  // prepared, where the sandbox can: what the request printed is known once it replies
  const { reply, prepared } = startCodeCall(ctx, call);
  reply.catch(() => undefined);
  return { run, input, reply, prepared };
}

/**
 * Whether the run after this one may be sent before this one is recorded: only where nothing can
 * answer its first step instead (no recording to consult, no fork point, nothing recorded there —
 * a resume's runs are checked step by step as they come) and no abort is asked for. Sending it
 * early is harmless either way: its steps are pure, and a reply not needed is dropped.
 */
function maySendAhead(ctx: RunContext, next: CodeStep[], prefix: string): boolean {
  return next.length >= 2 && !ctx.recording && !ctx.abort?.signal.aborted && !ctx.memo.has(`${prefix}/${next[0].index}`);
}

/**
 * Runs a fused run of pure code steps: one round trip to the worker for the
 * lot instead of one per step — pure steps may be group-executed as they may
 * be group-committed, since re-running one is harmless. Each completed step is
 * recorded with its own input, key and output exactly as if it had run alone.
 * The run stops at the first step already in the memo, and the first that
 * fails in the worker is left to the single-step path (so its on_error and
 * error message are the usual ones); if the request fails as a whole, nothing
 * is recorded and the single-step path runs them all (`failed`).
 * `next` is the memo lookup of the step it stopped at, when it made one.
 *
 * Ahead: when every step of the run returned a value that merges, the run
 * after it (`following`) is sent with the value they make before they are
 * recorded, so the worker runs it while this process hashes and records (and
 * commits) these; `sent` is such a request for this run, made by the run
 * before. A step's duration is its share of the time the chain waited for its
 * request (for a request sent ahead, the wait left at its turn).
 *
 * A request that printed anything (stdout, stderr) is sent once more (its
 * steps are pure): the first call on a fresh worker imports the module, and a
 * module that prints as it is imported (a top-level print, a Python warning)
 * printed then, not in any step. When the second request prints nothing, what
 * the first printed was the import's: it is recorded on the first step, as a
 * step run alone records what its call's import printed, and the second's
 * results are recorded. When it prints too, the steps print themselves: what
 * they printed cannot be told apart by step, so they run again alone and each
 * records its own — and the module's later runs in this run go alone at once
 * (`printingModules`). Only a printing chain pays either.
 */
async function runFused(
  ctx: RunContext,
  run: CodeStep[],
  input: JsonObject,
  prefix: string,
  scope: ChainScope,
  sent?: FusedCall,
  following?: () => CodeStep[],
): Promise<{ value: JsonObject; count: number; failed?: boolean; next?: MemoLookup; ahead?: FusedCall }> {
  const firstDef = processorDef(run[0], input, `${prefix}/${run[0].index}`, scope);
  const first = isLargeValue(input) ? await lookupLargeMemo(ctx, firstDef) : lookupMemo(ctx, firstDef);
  if (first.hit) return { value: input, count: 0, next: first };
  await beginStep(ctx, false); // a fused run is of pure steps
  const started = ctx.deps.clock.now();
  const request = sent ?? sendFused(ctx, run, input);
  const replied = await fusedOutputs(ctx, request, prefix, started);
  if (!replied) return { value: input, count: 0, failed: true, next: first };
  let outputs: Json[] = replied;
  // what the request printed is the whole request's: the pipe does not say which step wrote it
  let atImport: PrintedOutput | undefined;
  if (request.prepared?.printed) {
    const printing = printingModules(ctx);
    const again = printing.has(run[0].modulePath) ? null : sendFused(ctx, run, input);
    const repliedAgain = again && (await fusedOutputs(ctx, again, prefix, started));
    if (again && !repliedAgain) return { value: input, count: 0, failed: true, next: first };
    // printed again (or not asked): the steps print themselves. Each is run again alone (they are pure), so that its record holds what it printed itself
    if (!again?.prepared || again.prepared.printed || !repliedAgain) {
      printing.add(run[0].modulePath);
      return { value: input, count: 0, failed: true, next: first };
    }
    atImport = request.prepared.printed;
    outputs = repliedAgain;
  }
  const each = (ctx.deps.clock.now() - started) / Math.max(1, outputs.length);
  // the values the outputs make, merged in turn, up to the first that is too large (left to the single-step path)
  const values: JsonObject[] = [];
  for (let v = input, j = 0; j < outputs.length; j++) {
    const merged = mergedIfFits(run[j], v, outputs[j], scope);
    if (!merged) break;
    values.push((v = merged));
  }
  let ahead: FusedCall | undefined;
  if (following && values.length === run.length) {
    const next = following();
    if (maySendAhead(ctx, next, prefix)) ahead = sendFused(ctx, next, values[values.length - 1]);
  }
  let value = input;
  let count = 0;
  for (const output of outputs) {
    const step = run[count];
    const def = processorDef(step, value, `${prefix}/${step.index}`, scope);
    // a large value (a step's output near the cap) is keyed across turns: a second of hashing otherwise holds the loop
    const look = count === 0 ? first : isLargeValue(value) ? await lookupLargeMemo(ctx, def) : lookupMemo(ctx, def);
    if (look.hit) return { value, count, next: look };
    // a result too large for the value is left to the single-step path, which fails that step (on_error applies)
    if (count >= values.length) return { value, count, next: look };
    // what the module's import printed: the first step's, the step whose call imported it
    await recordStep(ctx, def, look, count === 0 && atImport ? { output, status: 'ok', printed: atImport } : { output, status: 'ok' }, each);
    value = values[count];
    count++;
  }
  return { value, count, ahead };
}

/** The outputs a fused request replied with; null when it failed (its steps then go alone, where the failing one says why). */
async function fusedOutputs(ctx: RunContext, request: FusedCall, prefix: string, started: number): Promise<Json[] | null> {
  try {
    const r = await untilAbortRequested(ctx, request.reply, { position: `${prefix}/${request.run[0].index}`, kind: 'processor' }, started);
    return isJsonObject(r) && Array.isArray(r.outputs) ? r.outputs : [];
  } catch (err) {
    if (isInfrastructureError(err)) throw err;
    return null;
  }
}

/** the modules whose fused requests printed again when sent twice (their steps print): their later runs in the run go alone at once */
const PRINTING = new WeakMap<RunContext, Set<string>>();
function printingModules(ctx: RunContext): Set<string> {
  let s = PRINTING.get(ctx);
  if (!s) PRINTING.set(ctx, (s = new Set()));
  return s;
}

/** What a processor step is, for the memo and the log. */
function processorDef(step: StepSpec, value: JsonObject, position: string, scope: ChainScope): StepDef {
  return {
    kind: 'processor',
    phase: scope.phase,
    position,
    definition: stepDefinition(step),
    input: value,
    pure: isPureStep(step),
    worldPurity: readsWorld(step),
    // steps inside an iterate are nested: the chain's own steps are listed, not every element's
    label: position.slice(0, position.lastIndexOf('/')) !== scope.prefix ? { ...stepLabel(step), nested: true, overs: scope.overs ?? [] } : stepLabel(step),
  };
}

/** a step's label, built once per step spec (never changed: records copy it) */
const LABELS = new WeakMap<StepSpec, JsonObject>();
function stepLabel(step: StepSpec): JsonObject {
  let l = LABELS.get(step);
  if (l === undefined) LABELS.set(step, (l = { index: step.index, type: step.type, onError: step.onError, line: step.line }));
  return l;
}

/** `known`: the memo lookup already made for this step at this value (by runFused), if any */
async function runOneStep(
  ctx: RunContext,
  step: StepSpec,
  value: JsonObject,
  position: string,
  scope: ChainScope,
  known?: MemoLookup,
): Promise<JsonObject> {
  const def = processorDef(step, value, position, scope);
  const look = known ?? (isLargeValue(value) ? await lookupLargeMemo(ctx, def) : lookupMemo(ctx, def));
  let status: string;
  let output: Json;
  let merged: JsonObject | undefined;
  if (look.hit) {
    if (look.fromRecording) await recordAnswer(ctx, def, look);
    status = look.hit.status;
    output = look.hit.output;
    if (status === 'failed') {
      // recorded as failed with on_error: fail — the crash came between it and the abort
      const e = (isJsonObject(output) && isJsonObject(output.error) ? output.error : {}) as { message?: string };
      throw new WorkflowAbortedError(`${stepWhere(step, scope)} failed: ${e.message ?? 'failed'}`, stepLocation(step, scope, position));
    }
  } else {
    // a code step's request is made while the commit before it travels; it is sent once that commit is durable
    const call = prepareCodeCall(ctx, step, value);
    await beginStep(ctx, actsOnWorld(def));
    const started = ctx.deps.clock.now();
    let head: StepHead | null = null;
    try {
      const work = call ? call.start() : executeProcessorStep(ctx, step, value, position, scope);
      // a code step's record but its result, built while its worker runs it (data-text.ts)
      if (call) head = recordHead(def, look);
      output = await untilAbortRequested(ctx, work, def, started);
      requireMergeable(step, output);
      // a code step's result (a worker's reply: at most MAX_REPLY_CHARS) measured by its JSON text, which its record reuses
      const text = head ? JSON.stringify(output) : undefined;
      if (text === undefined) requireValueFits(output, 'it returned');
      else if (text.length > MAX_VALUE_CHARS) throw tooLarge('it returned');
      else head!.output = { value: output, text };
      merged = merge(step, value, output, scope);
      requireMergeFits(value, output, merged, step.into?.length ?? 4, text?.length);
      status = 'ok';
    } catch (err) {
      if (isInfrastructureError(err)) throw err;
      const e = errorToJson(err);
      // a call that returned, then was refused here (a result that cannot be merged, too large), printed what it printed; a call that failed has none (its error carries it)
      const printed = call?.printed;
      if (step.onError === 'fail') {
        await recordStep(ctx, { ...def, pure: false }, look, { output: { error: e }, status: 'failed', printed }, ctx.deps.clock.now() - started);
        throw new WorkflowAbortedError(
          `${stepWhere(step, scope)} failed: ${e.message}`,
          stepLocation(step, scope, position),
          err instanceof StagecraftError ? err : undefined,
        );
      }
      status = step.onError === 'skip' ? 'skipped' : 'empty';
      output = { error: e };
      // the value `empty` wrote is the plan's (its schema's empty value): the log keeps it for the fold
      const recorded = status === 'empty' ? { ...def, label: { ...def.label, empty: step.emptyValue } } : def;
      await recordStep(ctx, recorded, look, { output, status, printed }, ctx.deps.clock.now() - started);
      return applyPolicy(step, value, status);
    }
    // what the code printed, kept on its record (set by the sandbox with the value: PreparedCall.printed);
    // a step that printed nothing hands recordStep what it always did (one shape on the usual path)
    const printed = call?.printed;
    await recordStep(ctx, def, look, printed ? { output, status, printed } : { output, status }, ctx.deps.clock.now() - started, head);
  }
  if (status === 'skipped' || status === 'empty') return applyPolicy(step, value, status);
  return merged ?? merge(step, value, output, scope);
}

/** The value with a fresh result merged in, or null when the result or the value would be over the cap. */
function mergedIfFits(step: StepSpec, value: JsonObject, output: Json, scope: ChainScope): JsonObject | null {
  if (!isMergeable(step, output) || !valueFits(output)) return null;
  const merged = merge(step, value, output, scope);
  try {
    requireMergeFits(value, output, merged, step.into?.length ?? 4);
  } catch {
    return null;
  }
  return merged;
}

const stepLocation = (step: StepSpec, scope: ChainScope, position: string) => ({
  phase: scope.phase,
  step: step.index,
  stepType: step.type,
  position,
  onError: step.onError,
});

const stepWhere = (step: StepSpec, scope: ChainScope) => `${scope.label} step ${step.index} (${step.type}, skill.md line ${step.line})`;

/** Whether `merge` can take the result: stored under `into` or `lint`, a validate's null, or an object to merge. */
function isMergeable(step: StepSpec, output: Json): boolean {
  return Boolean(step.into) || step.type === 'lint_plan' || (output === null && step.type === 'validate') || isJsonObject(output);
}

/** A result that can be neither merged nor stored is the step's failure (so on_error applies to it). */
function requireMergeable(step: StepSpec, output: Json): void {
  if (isMergeable(step, output)) return;
  throw new StepFailedError(
    'result_not_mergeable',
    `it returned ${Array.isArray(output) ? 'an array' : output === null ? 'null' : typeof output}, which cannot be merged into the current value; return an object or set "into:"`,
  );
}

function applyPolicy(step: StepSpec, value: JsonObject, status: string): JsonObject {
  if (status === 'empty' && step.into) return { ...value, [step.into]: step.emptyValue };
  return value;
}

/** Merges a step's result into the value. Fresh results passed requireMergeable; a recorded one that cannot be merged aborts the chain. */
function merge(step: StepSpec, value: JsonObject, output: Json, scope: ChainScope): JsonObject {
  if (!isMergeable(step, output)) {
    throw new WorkflowAbortedError(
      `${scope.label} step ${step.index} (${step.type}) returned ${Array.isArray(output) ? 'an array' : typeof output}, which cannot be merged into the current value; return an object or set "into:"`,
      { phase: scope.phase, step: step.index, stepType: step.type },
    );
  }
  return mergeResult(value, step, output);
}

/**
 * How a step's result enters the chain's value: stored under `into` (a lint_plan's under `lint`),
 * ignored when null (a validate's), else shallow-merged. The fold applies the same rule.
 */
export function mergeResult(value: JsonObject, step: { type: string; into?: string | null }, output: Json): JsonObject {
  if (step.into) return merged(value, { [step.into]: output });
  if (step.type === 'lint_plan') return merged(value, { lint: output });
  if (output === null) return value;
  return merged(value, output as JsonObject);
}

