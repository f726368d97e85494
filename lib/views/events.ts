/**
 * The events of a run, typed per kind: one member per event type, and inside
 * `step_completed` one per step kind (model turn, tool call, stage, processor
 * step). Free values (inputs, outputs, artifacts, schemas) are `z.json()`.
 * The kernel's fold, the CLI's `events --json`, the API and the browser all
 * read the log through `RunEventView`.
 *
 * The kernel writes these shapes (lib/kernel/events.ts types `Journal.append`);
 * the `Tie` checks at the end make a change on either side that the other does
 * not make a type error, and events.test.ts parses every event of every
 * example run with this union. Fields added to the log later are optional here:
 * a run recorded before them still parses.
 *
 * Owns: the wire shape of events. Does not: interpret them (lib/kernel/fold.ts).
 */
import { z } from 'zod';
import type * as K from '../kernel/events';

const json = z.json();
const jsonObject = z.record(z.string(), json);
const rung = z.enum(['prompt-assembly', 'post-model', 'pre-tool', 'post-tool', 'finalize']);
const onError = z.enum(['fail', 'skip', 'empty']);

export const ToolCallView = z.object({ id: z.string(), op: z.string(), args: jsonObject });
export const ToolSpecView = z.object({ name: z.string(), description: z.string(), parameters: z.union([jsonObject, z.boolean()]) });

export const ModelTurnView = z.object({
  text: z.string(),
  toolCalls: z.array(ToolCallView),
  finish: jsonObject.nullable(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
});
export type ModelTurnView = z.infer<typeof ModelTurnView>;

export const RequestFrameView = z.object({
  system: z.string(),
  tools: z.array(ToolSpecView),
  responseFormat: z.union([jsonObject, z.boolean()]).nullable(),
});
export type RequestFrameView = z.infer<typeof RequestFrameView>;

export const ProgramStageView = z.object({
  name: z.string(),
  capability: z.string(),
  rung,
  effects: z.array(z.string()),
  line: z.number().int().optional(),
});
export type ProgramStageView = z.infer<typeof ProgramStageView>;

// ---------------------------------------------------------------- data per event type

/** who drives a run from an event on (a worker's id, host and pid; or the app, a CLI) */
export const DriverView = z.object({ kind: z.string().optional(), worker: z.string().optional(), host: z.string().optional(), pid: z.number().int().optional() });

const RunStartedData = z.object({
  skill: z.string(),
  skillHash: z.string(),
  model: z.string(),
  input: jsonObject,
  parentRunId: z.string().nullable(),
  entry: z.string().optional(),
  bundleDir: z.string().optional(),
  stages: z.array(ProgramStageView).optional(),
  kind: z.enum(['replay', 'fork']).optional(),
  forkPoint: z.string().nullable().optional(),
  fork: jsonObject.optional(),
  driver: DriverView.optional(),
  queued: z.boolean().optional(),
});

const RunAdmittedData = z.object({
  waitedMs: z.number(),
  skillHash: z.string(),
  bundleDir: z.string().optional(),
  stages: z.array(ProgramStageView).optional(),
  driver: DriverView.optional(),
});

const RunResumedData = z.object({
  fromSeq: z.number().int(),
  currentPhase: z.string(),
  skillHash: z.string(),
  bundleDir: z.string().optional(),
  stages: z.array(ProgramStageView).optional(),
  driver: DriverView.optional(),
});

const marker = z.string();

const PhaseStartedData = z.object({
  marker,
  phase: z.string(),
  visit: z.number().int(),
  input: jsonObject,
  frame: z.string().optional(),
  frameValue: RequestFrameView.optional(),
});

const FinishRejectedData = z.object({ marker, phase: z.string(), visit: z.number().int(), round: z.number().int(), errors: z.string() });
const ForkPointReachedData = z.object({ marker, position: z.string(), target: z.string(), from: z.string(), recorded: json, edited: json.nullable() });
const PhaseCompletedData = z.object({ marker, phase: z.string(), visit: z.number().int(), artifact: jsonObject, next: z.string().nullable() });
const ArtifactPersistedData = z.object({ marker, path: z.string(), phase: z.string() });
const FactOverriddenData = z.object({ marker, phase: z.string(), field: z.string(), fact: z.string(), modelValue: json, derivedValue: json });

export const AbortCauseView = z.discriminatedUnion('by', [
  z.object({ by: z.literal('request'), reason: z.string(), requestedBy: z.string() }),
  z.object({ by: z.literal('step'), phase: z.string(), position: z.string(), index: z.number().int(), type: z.string(), onError }),
  z.object({ by: z.literal('contract'), phase: z.string().nullable() }),
]);
export type AbortCauseView = z.infer<typeof AbortCauseView>;

const RunEndedData = z.object({ output: json, error: jsonObject.nullable(), report: jsonObject, abort: AbortCauseView.optional() });

// ---------------------------------------------------------------- step_completed, per kind

const stepCommon = {
  phase: z.string(),
  position: z.string(),
  key: z.string(),
  defHash: z.string(),
  durationMs: z.number(),
  recorded: z.object({ runId: z.string().nullable(), seq: z.number().int() }).optional(),
  edited: z.literal(true).optional(),
};

const ModelStepData = z.object({
  ...stepCommon,
  kind: z.literal('model'),
  round: z.number().int(),
  model: z.string(),
  definition: z.object({ step: z.literal('model'), prompt: z.string(), tools: z.array(z.string()), contract: z.string() }),
  status: z.literal('ok'),
  output: ModelTurnView,
  frame: z.string().optional(),
  frameValue: RequestFrameView.optional(),
});

const ToolStepData = z.object({
  ...stepCommon,
  kind: z.literal('tool'),
  op: z.string(),
  round: z.number().int().optional(),
  index: z.number().int().optional(),
  callId: z.string().optional(),
  definition: z.object({ op: z.string() }),
  status: z.enum(['ok', 'error', 'refused']),
  output: json,
});

const StageStepData = z.object({
  ...stepCommon,
  kind: z.literal('stage'),
  stage: z.string(),
  capability: z.string(),
  rung,
  round: z.number().int(),
  definition: z.object({ stage: z.string(), rung, binding: jsonObject, effects: z.array(z.string()), with: jsonObject }),
  status: z.enum(['ok', 'failed', 'refused', 'skipped']),
  granted: z.array(z.string()).optional(),
  missing: z.array(z.string()).optional(),
  notApplied: z.array(z.object({ key: z.string(), reason: z.string() })).optional(),
  output: z.union([
    z.object({ contribution: jsonObject }),
    z.object({ error: z.object({ message: z.string(), stack: z.string().nullable() }) }),
  ]),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
});

const ProcessorStepData = z.object({
  ...stepCommon,
  kind: z.literal('processor'),
  index: z.number().int(),
  type: z.enum(['validate', 'run_op', 'iterate', 'lint_plan', 'python', 'node']),
  nested: z.literal(true).optional(),
  overs: z.array(z.string()).optional(),
  onError: onError.optional(),
  line: z.number().int().optional(),
  empty: json.optional(),
  definition: json,
  status: z.enum(['ok', 'failed', 'skipped', 'empty']),
  output: json,
  stdout: z.string().optional(),
  stderr: z.string().optional(),
});

export const StepCompletedDataView = z.discriminatedUnion('kind', [ModelStepData, ToolStepData, StageStepData, ProcessorStepData]);
export type StepCompletedDataView = z.infer<typeof StepCompletedDataView>;

// ---------------------------------------------------------------- the union

const head = { seq: z.number().int().min(1), at: z.number() };
const member = <T extends K.EventType, D extends z.ZodType>(type: T, data: D) => z.object({ ...head, type: z.literal(type), data });

export const RunEventView = z.discriminatedUnion('type', [
  member('run_started', RunStartedData),
  member('run_resumed', RunResumedData),
  member('run_admitted', RunAdmittedData),
  member('phase_started', PhaseStartedData),
  member('step_completed', StepCompletedDataView),
  member('finish_rejected', FinishRejectedData),
  member('phase_completed', PhaseCompletedData),
  member('artifact_persisted', ArtifactPersistedData),
  member('fork_point_reached', ForkPointReachedData),
  member('fact_overridden', FactOverriddenData),
  member('run_completed', RunEndedData),
  member('run_failed', RunEndedData),
  member('run_aborted', RunEndedData),
]);
export type RunEventView = z.infer<typeof RunEventView>;

/** `stagecraft events RUN --json`: the run's events, each parsed by its kind */
export const RunEventsView = z.object({ runId: z.string(), events: z.array(RunEventView) }).strict();
export type RunEventsView = z.infer<typeof RunEventsView>;

// ---------------------------------------------------------------- the tie to the kernel's types

/** true when A and B are assignable both ways (the kernel's type and the view's say the same) */
type Tie<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Data<T extends K.EventType> = Extract<RunEventView, { type: T }>['data'];
type Ties = {
  [T in K.EventType]: Tie<Data<T>, K.EventDataMap[T]>;
};
/** a type error here names the event whose kernel type and view differ */
const EVENT_TIES: { [T in K.EventType]: true } = {} as Ties;
void EVENT_TIES;
