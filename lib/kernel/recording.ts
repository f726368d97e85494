/**
 * Recordings: another run's log used as a second memo, so that a replay and
 * a fork are the loop every run goes through (runner → phase-runner → stages
 * and processors → step.ts) with a different memo source and policy — not a
 * second engine.
 *
 * `lookupMemo` (step.ts) asks the run's own memo first, as a resume does; on
 * a miss it asks `consultRecording`, which answers the step with the recorded
 * one, lets it execute, or stops the run:
 *
 * - replay: model turns and tool outcomes come from the recording. A model
 *   step whose request (its definition — prompt, tools, contract — or its
 *   messages) differs from the recorded one, or that was never recorded,
 *   stops the replay (ReplayDivergedError), and so does a call that reaches
 *   the world (file/read, http/get, run_skill, ask_user) with arguments the
 *   recording never saw. Ops whose only effect is on the run's own workspace
 *   (file/write, workspace/*) really run, against the replay's own scratch
 *   workspace. Stages and processor steps really run: that is the point of a
 *   replay. Nothing is compared here (compare.ts aligns the two logs).
 * - fork: until the fork point is reached every step is answered from the
 *   recording (the step recorded at its position, with the same definition;
 *   anything else is ForkPointError `fork_prefix_changed`: running it would
 *   not be "the parent, up to here"); from the fork point on, everything runs
 *   live. A step holding the point (an iterate whose chain it is in) runs,
 *   so that its own steps reach it.
 *
 * At the fork point (a replay of a fork carries the fork's edit too) an
 * output edit answers the step with the edited value; an input edit replaces
 * the value flowing in (`atForkInput`: a phase start, the finish artifact, a
 * processor step's input, a tool call's arguments); no edit lets the step run
 * again. Reaching the point records `fork_point_reached` (the recorded value
 * and the edited one). A probe (fork-probe.ts) stops there instead and hands
 * back the value found, so an edit is checked before anything runs.
 *
 * An answered step is written to the run's own log, marked with the run and
 * seq it came from: a derived run's log stands on its own, and its resume
 * answers those steps from there.
 *
 * Owns: the recording, the two policies, the fork point's state. Does not:
 * choose skill versions, read the store, or compare runs.
 */
import { ForkPointError, ReplayDivergedError, StagecraftError } from './errors';
import { EVENT } from './events';
import type { Json, JsonObject } from './json';
import { isJsonObject } from './json';
import type { MemoEntry, RunEvent } from './ports';
import type { RunContext } from './context';
import { canonicalJson, memoEntryOf } from './memo';
import { appendOnce } from './markers';
import { RUN_INPUT_POINT, stepOutputCheck, type EditCheck, type FinishContract, type ForkPoint } from './fork-edits';
import { derivedFields } from './report';

export type DerivedMode = 'replay' | 'fork';

/** How a derived run derives: from which run's log, and with which fork point. */
export type Derivation = {
  mode: DerivedMode;
  parentRunId: string;
  /** the parent's whole log */
  events: readonly RunEvent[];
  point?: ForkPoint | null;
  /** stop at the fork point and report the value there (fork-probe.ts) */
  probe?: boolean;
};

export type Recording = {
  mode: DerivedMode;
  runId: string;
  /** every record of each position, in log order (a world read re-executed on resume has several) */
  steps: Map<string, MemoEntry[]>;
  /** the parent's run input (what the `input` point edits) */
  input: Json;
  point: ForkPoint | null;
  reached: boolean;
  probe: boolean;
  /** how the parent failed, when a step that records nothing (a model call) failed it: a replay reproduces it */
  failure: JsonObject | null;
  /** the parent's steps it answered from its own parent's recording, with that run's id: nothing inside them is recorded */
  answeredFrom: Map<string, string>;
  /**
   * the model that answered each of the parent's model turns, by position: a turn answered from the
   * recording is recorded as that model's (not the replay's port), so whether its tokens were
   * reported (turn-usage.ts) reads the same in the replay or fork as where it ran
   */
  models: Map<string, string>;
};

/** ops whose effects stay in the run's own workspace: a replay runs them there */
const WORKSPACE_OPS = new Set(['file/write', 'workspace/write', 'workspace/read']);

const FORK_MARKER = 'fork:reached';

export function recordingOf(d: Derivation, ownLog: readonly RunEvent[]): Recording {
  const steps = new Map<string, MemoEntry[]>();
  let input: Json = null;
  let failure: JsonObject | null = null;
  const answeredFrom = new Map<string, string>();
  const models = new Map<string, string>();
  for (const e of d.events) {
    if (e.type === EVENT.runStarted) input = (e.data.input ?? null) as Json;
    if (e.type === EVENT.runFailed && isJsonObject(e.data.error) && typeof e.data.error.position === 'string') failure = e.data.error;
    const m = memoEntryOf(e);
    if (!m) continue;
    if (isJsonObject(e.data.recorded) && typeof e.data.recorded.runId === 'string') answeredFrom.set(m.position, e.data.recorded.runId);
    if (m.kind === 'model' && typeof e.data.model === 'string') models.set(m.position, e.data.model);
    const list = steps.get(m.position);
    if (list) list.push(m);
    else steps.set(m.position, [m]);
  }
  const point = d.point ?? null;
  const reached = point !== null && (point.at === RUN_INPUT_POINT || ownLog.some((e) => e.data.marker === FORK_MARKER));
  return { mode: d.mode, runId: d.parentRunId, steps, input, point, reached, probe: d.probe === true, failure, answeredFrom, models };
}

/** The fork point was reached in a probe: the value there and its check (not an error anyone sees). */
export class ForkProbeReached extends StagecraftError {
  constructor(
    readonly base: Json,
    readonly check: EditCheck | null,
    readonly kind: string,
  ) {
    super('fork_probe_reached', 'the fork point was reached');
  }
}

/** A failure the recording ends with, raised again where it happened (a replay of a run whose model call failed). */
class RecordedFailure extends StagecraftError {
  constructor(recorded: JsonObject) {
    const { code, message, ...details } = recorded;
    super(String(code), String(message), { details: details as JsonObject });
  }
}

/** What a recorded step's editable value is: a stage's contribution, anything else's output. */
export function valueOfEntry(e: MemoEntry): Json {
  if (e.kind !== 'stage') return e.output;
  return isJsonObject(e.output) ? ((e.output.contribution ?? {}) as Json) : {};
}

/** `step` (a StepDef) is what step.ts passes: kept structural so that module stays the only one that knows StepDef. */
type Asked = { kind: string; phase?: string; position: string; definition: Json };

/**
 * The recorded answer for a step this run's own memo did not have: a memo entry (answer with it),
 * null (execute the step), or a thrown ReplayDivergedError / ForkPointError / ForkProbeReached.
 */
export function consultRecording(ctx: RunContext, step: Asked, key: string, defHash: string): MemoEntry | null {
  const rec = ctx.recording;
  if (!rec) return null;
  const list = rec.steps.get(step.position);
  const entry = list ? list[list.length - 1] : undefined;
  const point = rec.point;
  if (point && !rec.reached && point.at === step.position && point.target !== 'input') {
    rec.reached = true;
    if (rec.probe) throw new ForkProbeReached(entry ? valueOfEntry(entry) : null, point.target === 'output' ? stepOutputCheck(step.kind, step.definition, finishContractOf(ctx, step)) : null, step.kind);
    if (point.target === 'output') {
      if (!entry) throw new ForkPointError('fork_point_unknown', `Run ${rec.runId} recorded no step at ${step.position}: there is no value there to edit.`, { position: step.position });
      // a replay of a fork answers with what the fork recorded there: the edited value
      if (rec.mode === 'replay') return entry;
      const value = point.value ?? null;
      return { ...entry, status: 'ok', output: step.kind === 'stage' ? { contribution: value } : value };
    }
    if (rec.mode === 'fork') return null;
  }
  return rec.mode === 'fork' ? forkPolicy(rec, step, entry, defHash) : replayPolicy(rec, step, entry, key, defHash);
}

/** What a model turn's finish is held to at its phase (see FinishContract): none for other steps, or where a finalize stage may patch it first. */
function finishContractOf(ctx: RunContext, step: Asked): FinishContract {
  const phase = step.kind === 'model' && step.phase ? ctx.plan.phases[step.phase] : undefined;
  if (!phase || ctx.plan.stageProgram.some((s) => s.rung === 'finalize')) return null;
  return { phase: phase.name, schema: phase.outputSchema, derived: Object.keys(derivedFields(phase.outputSchema)) };
}

function forkPolicy(rec: Recording, step: Asked, entry: MemoEntry | undefined, defHash: string): MemoEntry | null {
  if (rec.reached) return null;
  const at = rec.point?.at ?? '?';
  // a point inside this step (a step of an iterate's chain, a run_op's op): answered whole, the step
  // would never reach it, so it runs, its own steps before the point answered from the recording —
  // unless the step itself changed (an iterate over other items): then those answers would not fit
  const holdsPoint = step.kind === 'processor' && at.startsWith(`${step.position}/`);
  if (holdsPoint && !entry) return null;
  if (!entry) {
    throw new ForkPointError(
      'fork_prefix_changed',
      `The skill now has a ${step.kind} step at ${step.position}, before the fork point ${at}, which run ${rec.runId} never recorded: it cannot be answered from the recording. Fork at ${step.position} or earlier, or fork with the version the run recorded.`,
      { position: step.position, forkPoint: at, current: step.definition },
    );
  }
  // the step holding the point is compared without its nested steps: those before the point are
  // compared one by one as they are answered, and those at or after it are the fork's to change
  const recorded = holdsPoint ? withoutSteps(entry.definition) : entry.definition;
  const current = holdsPoint ? withoutSteps(step.definition) : step.definition;
  if ((holdsPoint || entry.defHash !== defHash) && !sameDefinition(recorded, current)) {
    throw new ForkPointError(
      'fork_prefix_changed',
      `The ${step.kind} step at ${step.position}, before the fork point ${at}, changed since run ${rec.runId} recorded it (recorded as ${JSON.stringify(recorded)}, now ${JSON.stringify(current)}): it cannot be answered from the recording. Fork at ${step.position} or earlier, or fork with the version the run recorded.`,
      { position: step.position, forkPoint: at, recorded, current },
    );
  }
  if (!holdsPoint) return entry;
  // the parent answered this step whole from its own parent's recording: it recorded nothing inside
  const from = rec.answeredFrom.get(step.position);
  if (from) {
    throw new ForkPointError(
      'fork_point_unknown',
      `Run ${rec.runId} answered ${step.position} whole from run ${from}'s recording, so it recorded nothing inside it, and the fork point ${at} is inside it. Fork run ${from} at ${at} instead.`,
      { position: step.position, forkPoint: at, recordedIn: from },
    );
  }
  return null;
}

function withoutSteps(d: Json): Json {
  if (!isJsonObject(d)) return d;
  const { steps: _nested, ...own } = d;
  return own;
}

/**
 * A module capability's definition names the absolute path of the version copy it ran from: the
 * same code elsewhere (another version's copy of an unchanged file, an imported run) is the same
 * step. The memo keeps the recorded definition (its hash keys resumes); a fork compares without it.
 */
function sameDefinition(recorded: Json, current: Json): boolean {
  const strip = (d: Json): Json => {
    if (!isJsonObject(d) || !isJsonObject(d.binding)) return d;
    const { modulePath: _where, ...binding } = d.binding;
    return { ...d, binding };
  };
  return canonicalJson(strip(recorded)) === canonicalJson(strip(current));
}

function replayPolicy(rec: Recording, step: Asked, entry: MemoEntry | undefined, key: string, defHash: string): MemoEntry | null {
  if (step.kind === 'model') {
    if (entry && entry.key === key) return entry;
    // the recorded run failed right here (the model call failed): so does its replay, with the same error
    if (!entry && rec.failure?.position === step.position) throw new RecordedFailure(rec.failure);
    if (!entry) {
      throw new ReplayDivergedError(
        'model_turn_unrecorded',
        `The replay reached a model turn at ${step.position} that run ${rec.runId} never had: the skill now takes another path, and a model turn cannot be made up. Fork the run to continue it live.`,
        { position: step.position, current: step.definition },
      );
    }
    const what = entry.defHash !== defHash ? 'its prompt, tools or contract' : 'its messages (what the earlier steps fed it)';
    throw new ReplayDivergedError(
      'model_request_changed',
      `The model request at ${step.position} changed (${what}), so the recorded turn does not answer it: the replay stops here. Fork the run to ask the model again.`,
      { position: step.position, recorded: entry.definition, current: step.definition, recordedSeq: entry.seq },
    );
  }
  if (step.kind === 'tool') {
    const op = isJsonObject(step.definition) ? String(step.definition.op) : '';
    if (WORKSPACE_OPS.has(op)) return null;
    if (entry && entry.key === key) return entry;
    throw new ReplayDivergedError(
      'tool_call_unrecorded',
      `The replay reached a ${op} call at ${step.position} ${entry ? 'with other arguments than' : 'that was not in'} run ${rec.runId}: its outcome is not in the recording, and a replay never reaches the world. Fork the run to make the call live.`,
      { position: step.position, op, ...(entry ? { recordedSeq: entry.seq } : {}) },
    );
  }
  return null; // stages and processor steps really run
}

/**
 * The fork point still ahead of this run, if any: where `atForkInput` may edit a value (callers on
 * hot paths check this first, without an await), and where processors must not fuse steps across.
 */
export function pendingForkPoint(ctx: RunContext): string | null {
  const rec = ctx.recording;
  return rec && rec.point && !rec.reached ? rec.point.at : null;
}

/**
 * A value flowing in at `position` (a phase start, the finish artifact, a processor step's input, a
 * tool call's arguments): at the fork point, the edited value replaces it (or, with no edit, it
 * flows on and the step runs again). A probe stops here with the value.
 */
export async function atForkInput<T extends Json>(ctx: RunContext, position: string, value: T, check: EditCheck): Promise<T> {
  const rec = ctx.recording;
  const point = rec?.point;
  if (!rec || !point || rec.reached || point.at !== position || point.target === 'output') return value;
  rec.reached = true;
  if (rec.probe) throw new ForkProbeReached(value, check, 'input');
  const edited = point.target === 'input' && point.value !== undefined ? (point.value as T) : value;
  await markForkPoint(ctx, value, point.target === 'input' ? edited : null);
  return edited;
}

/** Records `fork_point_reached` once: where, the value recorded there, and the edited one (null: none). */
export async function markForkPoint(ctx: RunContext, recorded: Json, edited: Json | null): Promise<void> {
  const point = ctx.recording?.point;
  if (!point) return;
  await appendOnce(ctx, FORK_MARKER, EVENT.forkPointReached, { position: point.at, target: point.target, from: ctx.recording!.runId, recorded, edited }, 'group');
}

/** The marker for a step at the fork point (its answer or its live run), recorded before the step itself. */
export async function markStepAtForkPoint(ctx: RunContext, position: string): Promise<void> {
  const rec = ctx.recording;
  if (!rec?.point || rec.point.at !== position || rec.point.target === 'input' || ctx.markers.has(FORK_MARKER)) return;
  const list = rec.steps.get(position);
  const recorded = list ? valueOfEntry(list[list.length - 1]) : null;
  await markForkPoint(ctx, recorded, rec.point.target === 'output' ? (rec.point.value ?? null) : null);
}
