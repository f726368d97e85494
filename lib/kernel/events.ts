/**
 * The event vocabulary of a run. Every transition of a run is one event in its
 * append-only log, numbered by `seq` (1, 2, 3 … without gaps).
 *
 * Owns: the event type names and the shape of their `data`, one type per event
 * and per step kind. The journal's `append` takes the data of its type, and
 * lib/views/events.ts states the same shapes in zod for everything that reads
 * the log (the fold, the CLI's `--json`, the API, the browser); a type-level
 * tie there keeps the two from drifting. Does not: assign seqs or write
 * anything (journal.ts does, through the store port).
 *
 * Fields marked "since" were added to the log later: a run recorded before
 * them lacks them, and every reader treats them as optional.
 *
 * Names follow the seed's `step_completed`: snake_case `noun_verb`.
 */
import type { Json, JsonObject, JsonSchema } from './json';
import type { OnError, Rung, StepType } from './plan';
import type { ModelTurn, ToolSpec, TraceStatus } from './ports';

/** the largest seq a run's log can hold (the stores keep a seq as a 32-bit integer, and refuse a larger one in a query) */
export const MAX_SEQ = 2_147_483_647;

export const EVENT = {
  runStarted: 'run_started',
  runResumed: 'run_resumed',
  /** a queued run got its turn: the app drives it from here (`waitedMs`: how long it was queued) */
  runAdmitted: 'run_admitted',
  phaseStarted: 'phase_started',
  /** one memoized step finished: a model turn, a tool call, a stage, a processor step */
  stepCompleted: 'step_completed',
  /** a finish artifact failed its phase's output schema; the next round tells the model why */
  finishRejected: 'finish_rejected',
  phaseCompleted: 'phase_completed',
  /** the finish artifact is durable in the workspace (before the postprocessor) */
  artifactPersisted: 'artifact_persisted',
  /** a fork reached its fork point: the recorded value there, and the edited one (recording.ts) */
  forkPointReached: 'fork_point_reached',
  /** an override of a machine-derived field the model wrote anyway */
  factOverridden: 'fact_overridden',
  runCompleted: 'run_completed',
  runFailed: 'run_failed',
  runAborted: 'run_aborted',
} as const;
export type EventType = (typeof EVENT)[keyof typeof EVENT];

/** The events that begin an execution of a run, each naming the folder it ran from (`bundleDir`): its start, a queued run's admission, a resume. */
export const EXECUTES_FROM: ReadonlySet<string> = new Set([EVENT.runStarted, EVENT.runAdmitted, EVENT.runResumed]);

/** What kind of step a `step_completed` event records. */
export type StepKind = 'model' | 'tool' | 'stage' | 'processor';

export const TERMINAL_EVENTS: ReadonlySet<string> = new Set([EVENT.runCompleted, EVENT.runFailed, EVENT.runAborted]);

// ---------------------------------------------------------------- data per event type

/** A stage of the plan's program as the log names it (so a reader knows the stages that did not run). */
export type ProgramStage = { name: string; capability: string; rung: Rung; effects: string[]; /** skill.md line of its declaration */ line?: number };

/**
 * What the plan and the kernel put into every model request of a phase visit besides the
 * transcript: the system prompt, the tools, the response format. Recorded content-addressed
 * (`frame` is its hash; `frameValue` is written with the first event of the run that names it),
 * so a model request can be rebuilt from the log alone, exactly.
 */
export type RequestFrame = { system: string; tools: ToolSpec[]; responseFormat: JsonSchema | null };

/**
 * Who drives a run from an event on (since the workers): `kind` `worker` (with its id), `app` or
 * `cli`, on which host, which pid. Recorded on run_started, run_admitted and run_resumed.
 */
export type DriverData = { kind?: string; worker?: string; host?: string; pid?: number };

export type RunStartedData = {
  skill: string;
  skillHash: string;
  model: string;
  input: JsonObject;
  parentRunId: string | null;
  /** since the inspector: the entry phase, the folder the plan runs from, the stage program */
  entry?: string;
  bundleDir?: string;
  stages?: ProgramStage[];
  /** a replay's or a fork's (absent for a plain run); a fork's point and edit, re-applied by its resume */
  kind?: 'replay' | 'fork';
  forkPoint?: string | null;
  fork?: JsonObject;
  /** since the workers: who drives it (absent for a queued run: its admission says) */
  driver?: DriverData;
  /** since the workers: recorded `queued`, driven only from its run_admitted */
  queued?: boolean;
};

/** A queued run got its turn: what it runs (as a resume says), and how long it waited. */
export type RunAdmittedData = {
  waitedMs: number;
  skillHash: string;
  bundleDir?: string;
  stages?: ProgramStage[];
  /** since the workers: who drives it from here */
  driver?: DriverData;
};

export type RunResumedData = {
  fromSeq: number;
  currentPhase: string;
  skillHash: string;
  /** since the inspector: what this execution runs (it may differ from the start's) */
  bundleDir?: string;
  stages?: ProgramStage[];
  /** since the workers: who drives it from here */
  driver?: DriverData;
};

type Marked = { marker: string };

export type PhaseStartedData = Marked & {
  phase: string;
  visit: number;
  input: JsonObject;
  /** since the inspector: the hash of the visit's request frame, and the frame the first time */
  frame?: string;
  frameValue?: RequestFrame;
};

export type FinishRejectedData = Marked & {
  phase: string;
  visit: number;
  round: number;
  /** the schema errors, as the retry message tells the model */
  errors: string;
};

/** A fork reached its point: the value recorded there by the parent, and the edited one (null: none). */
export type ForkPointReachedData = Marked & { position: string; target: string; from: string; recorded: Json; edited: Json | null };

export type PhaseCompletedData = Marked & { phase: string; visit: number; artifact: JsonObject; next: string | null };
export type ArtifactPersistedData = Marked & { path: string; phase: string };
export type FactOverriddenData = Marked & { phase: string; field: string; fact: string; modelValue: Json; derivedValue: Json };

/** Who ended a run as aborted, and why: a request, a failing step, or a contract. */
export type AbortCause =
  | { by: 'request'; reason: string; /** who asked: `cli (user dana)`, `api` … */ requestedBy: string }
  /** a processor step failed; its on_error is `fail` (or a recorded result could not be merged) */
  | { by: 'step'; phase: string; position: string; index: number; type: string; onError: OnError }
  | { by: 'contract'; phase: string | null };

/**
 * The step a user's abort cut short (on `run_aborted`, in its error as `cutShort`): where it was,
 * what kind, and how long it had run. Nothing of it is recorded otherwise: a step is recorded when it ends.
 */
export type CutShort = { position: string; kind: StepKind; ranMs: number };

export type RunEndedData = {
  output: Json;
  error: JsonObject | null;
  report: JsonObject;
  /** since the inspector, on `run_aborted`: what ended it */
  abort?: AbortCause;
};

// ---------------------------------------------------------------- step_completed, per kind

type StepCommon = {
  phase: string;
  position: string;
  key: string;
  defHash: string;
  durationMs: number;
  /** a replay's or fork's step answered from its parent's recording: the run and the event it came from */
  recorded?: { runId: string | null; seq: number };
  /** the step at a fork point whose output was edited */
  edited?: true;
};

export type ModelStepData = StepCommon & {
  kind: 'model';
  round: number;
  model: string;
  definition: { step: 'model'; prompt: string; tools: string[]; contract: string };
  status: 'ok';
  output: ModelTurn;
  /** since the inspector: the request frame this turn was asked with (its value when new to the log) */
  frame?: string;
  frameValue?: RequestFrame;
};

export type ToolStepData = StepCommon & {
  kind: 'tool';
  op: string;
  /** a model's tool call (absent for a processor's run_op) */
  round?: number;
  index?: number;
  callId?: string;
  definition: { op: string };
  /** `refused`: the permission gate refused the call before it ran (since the inspector) */
  status: 'ok' | 'error' | 'refused';
  output: Json;
};

export type StageStepData = StepCommon & {
  kind: 'stage';
  stage: string;
  capability: string;
  rung: Rung;
  round: number;
  definition: { stage: string; rung: Rung; binding: JsonObject; effects: string[]; with: JsonObject };
  status: TraceStatus;
  /** since the inspector: a refused stage's grants (what it had, what it lacked) */
  granted?: string[];
  missing?: string[];
  /** since the inspector: the keys of the contribution not applied, and why */
  notApplied?: { key: string; reason: string }[];
  /** the applied contribution, or the error of a failed stage */
  output: { contribution: JsonObject } | { error: { message: string; stack: string | null } };
  /**
   * since a capability's printed output: what a module capability printed on stdout and on stderr when
   * its call returned, as a code step's (ProcessorStepData.stdout); absent for a stream it left empty
   * and for a builtin. Never compared, nor part of the stage's key.
   */
  stdout?: string;
  stderr?: string;
};

export type ProcessorStepData = StepCommon & {
  kind: 'processor';
  index: number;
  type: StepType;
  /** a step inside an iterate (the chain's own steps are listed, not every element's), and the paths
   * of the arrays its iterates go over, outermost first (since the inspector) */
  nested?: true;
  overs?: string[];
  /** since the inspector: the step's on_error, its skill.md line, and the value `empty` wrote */
  onError?: OnError;
  line?: number;
  empty?: Json;
  definition: Json;
  status: 'ok' | 'failed' | 'skipped' | 'empty';
  output: Json;
  /**
   * since the printed output: what a python or node step printed on stdout and on stderr, when it
   * returned a value (a call that failed carries them in its error, as `stdoutTail` / `stderrTail`).
   * Each stream's first and last 4 KiB, with a line saying how many bytes were left out between them
   * (lib/sandbox/call-output.ts); absent for a stream it left empty. The code's own text, untrusted;
   * never compared (a replay's steps print what they print: compare.ts compares status and output).
   */
  stdout?: string;
  stderr?: string;
};

export type StepCompletedData = ModelStepData | ToolStepData | StageStepData | ProcessorStepData;

/** The data of each event type: what `Journal.append` takes and the views parse. */
export type EventDataMap = {
  run_started: RunStartedData;
  run_resumed: RunResumedData;
  run_admitted: RunAdmittedData;
  phase_started: PhaseStartedData;
  step_completed: StepCompletedData;
  finish_rejected: FinishRejectedData;
  phase_completed: PhaseCompletedData;
  artifact_persisted: ArtifactPersistedData;
  fork_point_reached: ForkPointReachedData;
  fact_overridden: FactOverriddenData;
  run_completed: RunEndedData;
  run_failed: RunEndedData;
  run_aborted: RunEndedData;
};

/** One event of the log, typed by its `type`. */
export type KernelEvent = { [T in EventType]: { runId: string; seq: number; type: T; at: number; data: EventDataMap[T] } }[EventType];
