/**
 * The run inspector's views: the run report with its words, the timeline
 * (phase visits → rounds → rung lanes, model turns, tool calls, processor
 * steps), the state at event k with what it changed, the detail of one item,
 * and one value in full. The kernel builds them (lib/kernel/timeline.ts,
 * inspect.ts, report.ts); lib/server serves them; the browser renders them.
 *
 * Free values are `ValueSlot`s: inline when short, else a size, a preview and
 * a `{ seq, path }` ref that `GET …/value` answers. Items are named by the
 * kernel's positions. The `Tie` checks at the end keep each view and the
 * kernel type it mirrors the same.
 *
 * Owns: the wire shapes. Does not: build them.
 */
import { z } from 'zod';
import type * as Kr from '../kernel/report';
import type * as Kt from '../kernel/timeline';
import type * as Ki from '../kernel/inspect';
import { AbortCauseView, ProgramStageView } from './events';

const json = z.json();
const rung = z.enum(['prompt-assembly', 'post-model', 'pre-tool', 'post-tool', 'finalize']);
const runStatus = z.enum(['queued', 'running', 'completed', 'failed', 'aborted']);
const str = z.string();
const int = z.number().int();
const seq = int;

export const ValueRefView = z.object({ seq, path: str }).strict();
export type ValueRefView = z.infer<typeof ValueRefView>;

/** a value: inline (`value`), or too large to send (`preview` and a `ref` to fetch it whole); `size` in characters of its JSON */
export const ValueSlotView = z.union([
  z.object({ size: int, value: json }).strict(),
  z.object({ size: int, preview: str, ref: ValueRefView }).strict(),
]);
export type ValueSlotView = z.infer<typeof ValueSlotView>;

export const ErrorInfoView = z
  .object({ code: str.nullable(), message: str, stack: str.nullable(), where: z.object({ file: str, line: int }).strict().nullable(), stderr: str.optional() })
  .strict();
export type ErrorInfoView = z.infer<typeof ErrorInfoView>;

// ---------------------------------------------------------------- the report

const counts = z.record(str, int);

/** `deriveReport`: facts and words from the log. Fields after `annotations` are absent from reports recorded before them. */
export const RunReportView = z
  .object({
    outcome: z.enum(['succeeded', 'blocked', 'failed']),
    block_reason: str.nullable(),
    failed_stage: z
      .object({ phase: str, rung: str, stage: str, capability: str, round: z.number(), error: str, position: str.optional() })
      .strict()
      .nullable(),
    changed_paths: z.array(str),
    step_counts: z
      .object({
        model: int,
        tool: int,
        stage: int,
        processor: int,
        processor_by_status: counts,
        stage_by_status: counts.optional(),
        tool_by_status: counts.optional(),
      })
      .strict(),
    rounds: z.number().optional(),
    annotations: z.number().optional(),
    status: runStatus.optional(),
    summary: str.optional(),
    failed_step: z.object({ phase: str, position: str, index: int, type: str, on_error: str, error: str }).strict().nullable().optional(),
    error: ErrorInfoView.extend({ position: str.nullable() }).strict().nullable().optional(),
    aborted_by: AbortCauseView.nullable().optional(),
    blocked_by: z.object({ stage: str, position: str, call: int, reason: str }).strict().nullable().optional(),
    /** failed, aborted by a step or a contract, or blocked: what the runs list's "needs attention" filters on */
    needs_attention: z.boolean().optional(),
    attention: z.enum(['failed', 'aborted', 'blocked']).nullable().optional(),
    version: z.object({ skill: str, skill_hash: str, resumed_with: z.array(str) }).strict().optional(),
    reused: z.object({ model: int, tool: int, stage: int, processor: int }).strict().optional(),
  })
  .strict();
export type RunReportView = z.infer<typeof RunReportView>;

// ---------------------------------------------------------------- the timeline

/** `reused`: how many of the model turns counted were answered from another run's recording (run and paid for there) */
/** `tokensNotReported`: only when some turn's endpoint did not say what it used (lib/kernel/turn-usage.ts); `cost` is then null (unknown) */
const tokensNotReported = z.object({ turns: int, of: int, reportedCost: z.number().nullable() }).strict();
const usage = z.object({ inputTokens: z.number(), outputTokens: z.number(), latencyMs: z.number(), cost: z.number().nullable(), reused: int, tokensNotReported: tokensNotReported.optional() }).strict();
const tokens = z.object({ inputTokens: z.number(), outputTokens: z.number() }).strict();
const answeredFromLog = seq.nullable();
/** a replay's or fork's step answered from its parent's recording (`edited`: with the fork's value at its point) */
const fromRecording = z.object({ runId: str.nullable(), seq, edited: z.boolean() }).strict().nullable();

export const TimelineTraceView = z
  .object({
    id: str,
    seq: seq.nullable(),
    rung,
    capability: str,
    stage: str,
    status: z.enum(['ok', 'failed', 'refused', 'skipped']),
    label: str,
    summary: str,
    notApplied: z.array(z.object({ key: str, reason: str }).strict()),
    effects: z.object({ asked: z.array(str), granted: z.array(str), missing: z.array(str) }).strict(),
    error: ErrorInfoView.nullable(),
    durationMs: z.number().nullable(),
    line: int.nullable(),
    answeredFromLog,
    fromRecording,
  })
  .strict();

export const TimelineToolCallView = z
  .object({
    id: str,
    seq: seq.nullable(),
    index: int,
    callId: str,
    op: str,
    status: z.enum(['ok', 'error', 'denied', 'refused', 'pending']),
    summary: str,
    size: int.nullable(),
    durationMs: z.number().nullable(),
    deniedBy: z.object({ stage: str, seq }).strict().nullable(),
    answeredFromLog,
    fromRecording,
  })
  .strict();

export const TimelineModelTurnView = z
  .object({
    id: str,
    seq,
    round: int,
    summary: str,
    text: str,
    textSize: int,
    toolCalls: z.array(z.object({ id: str, op: str }).strict()),
    finished: z.boolean(),
    usage: tokens.nullable(),
    latencyMs: z.number(),
    cost: z.number().nullable(),
    answeredFromLog,
    fromRecording,
  })
  .strict();

export const TimelineRoundView = z
  .object({
    id: str,
    round: int,
    seq,
    lanes: z.array(z.object({ rung, traces: z.array(TimelineTraceView) }).strict()),
    model: TimelineModelTurnView.nullable(),
    tools: z.array(TimelineToolCallView),
    rejected: z.object({ seq, errors: str }).strict().nullable(),
    usage,
  })
  .strict();

export const TimelineStepView = z
  .object({
    id: str,
    seq,
    position: str,
    phase: str,
    index: int,
    type: str,
    status: str,
    onError: z.enum(['fail', 'skip', 'empty']).nullable(),
    branch: z.enum(['none', 'fail', 'skip', 'empty']),
    label: str,
    summary: str,
    error: ErrorInfoView.nullable(),
    durationMs: z.number(),
    line: int.nullable(),
    answeredFromLog,
    fromRecording,
    nested: z.object({ steps: int, failed: int, skipped: int, empty: int }).strict().nullable(),
  })
  .strict();

export const TimelineChainView = z.object({ id: str, phase: str, steps: z.array(TimelineStepView) }).strict();

export const TimelineVisitView = z
  .object({
    id: str,
    phase: str,
    visit: int,
    startSeq: seq,
    endSeq: seq.nullable(),
    status: runStatus,
    pre: TimelineChainView.nullable(),
    rounds: z.array(TimelineRoundView),
    finish: z.object({ seq, artifact: ValueSlotView, next: str.nullable() }).strict().nullable(),
    overrides: z.array(z.object({ seq, field: str, fact: str }).strict()),
    usage,
  })
  .strict();

export const AppliedPriceView = z.object({ model: str, currency: str, input: z.number(), output: z.number() }).strict();

/** a visit named in a few words, for the visits a timeline window does not hold */
export const VisitOutlineView = z.object({ id: str, phase: str, visit: int, status: runStatus, rounds: int }).strict();

/** visits per window of the run page's timeline (`?from=&limit=`): a page of them is read as they come into view */
export const TIMELINE_PAGE_VISITS = 20;

/** `GET /api/runs/<id>/timeline`: the run page's report and timeline (`visits`: the window `window` of `outline`) */
export const RunTimelineView = z
  .object({
    runId: str,
    lastSeq: int,
    status: runStatus,
    skill: str,
    model: str,
    report: RunReportView,
    program: z.array(ProgramStageView),
    visits: z.array(TimelineVisitView),
    post: TimelineChainView.nullable(),
    resumes: z.array(z.object({ seq, fromSeq: int, currentPhase: str }).strict()),
    failures: z.array(str),
    selected: str.nullable(),
    usage,
    price: AppliedPriceView.nullable(),
    outline: z.array(VisitOutlineView),
    window: z.object({ from: int, to: int }).strict(),
  })
  .strict();
export type RunTimelineView = z.infer<typeof RunTimelineView>;

// ---------------------------------------------------------------- the state at k

const toolCallsView = z.array(z.object({ id: str, op: str, args: ValueSlotView }).strict());

export const MessageView = z
  .object({
    id: str,
    seq: seq.nullable(),
    editedSeq: seq.nullable(),
    editedBy: str.nullable(),
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: ValueSlotView,
    toolCallId: str.nullable(),
    op: str.nullable(),
    toolCalls: toolCallsView.nullable(),
    /** the phase's input, edited at a fork's point: that phase visit, and the visit that made the value it replaced (null: the run's input); absent otherwise */
    editedAt: str.optional(),
    editedOver: str.nullable().optional(),
  })
  .strict();
export type MessageView = z.infer<typeof MessageView>;

const stepCounts = z.object({ ok: int, failed: int, refused: int, skipped: int, empty: int, error: int }).strict();

/** `GET /api/runs/<id>/state?seq=K`: the state after events 1..K, and what event K changed */
export const RunStateView = z
  .object({
    runId: str,
    seq: int,
    lastSeq: int,
    at: z.number().nullable(),
    type: str.nullable(),
    status: runStatus,
    phase: str.nullable(),
    visit: str.nullable(),
    round: int.nullable(),
    resume: z.object({ currentPhase: str, seq, data: ValueSlotView }).strict().nullable(),
    transcript: z.array(MessageView),
    chain: z
      .object({
        prefix: str,
        phase: str,
        value: ValueSlotView,
        step: str.nullable(),
        /** that step failed, or failed and was skipped: the value is what it was handed (absent: its result entered the value) */
        stepStatus: z.enum(['failed', 'skipped']).optional(),
        element: z.object({ prefix: str, value: ValueSlotView, step: str }).strict().nullable(),
        /** the value is a fork's edit of a step's input, made at its point: that step (absent: what the run made) */
        editedAt: str.optional(),
        /** the edit is the chain's own input (a phase's input, the finish artifact): the phase visit that made the value it replaced (null: the run's input; absent: not such an edit) */
        editedOver: str.nullable().optional(),
      })
      .strict()
      .nullable(),
    workspace: z.array(z.object({ path: str, seq, content: ValueSlotView }).strict()),
    files: z.array(z.object({ path: str, seq, bytes: int }).strict()),
    counts: z.object({ events: int, model: int, tool: stepCounts.extend({ denied: int }).strict(), stage: stepCounts, processor: stepCounts }).strict(),
    output: ValueSlotView.nullable(),
    error: ErrorInfoView.nullable(),
    item: str.nullable(),
    change: z.object({ summary: str, paths: z.array(str), whole: str.optional() }).strict(),
  })
  .strict();
export type RunStateView = z.infer<typeof RunStateView>;

// ---------------------------------------------------------------- one item

const turnView = z.object({ text: ValueSlotView, toolCalls: toolCallsView, finish: ValueSlotView.nullable(), usage: tokens.nullable() }).strict();
const rebuilt = z.object({ verified: z.boolean() }).strict();

/** `GET /api/runs/<id>/items/<seq>`: the detail panel of the item recorded at seq */
export const RunItemView = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('stage'),
      seq,
      id: str,
      status: str,
      definition: ValueSlotView,
      context: z
        .object({
          runId: str,
          phase: str,
          round: int,
          rung: str,
          stage: str,
          with: ValueSlotView,
          messages: z.array(MessageView).nullable(),
          turn: turnView.nullable(),
          requests: toolCallsView.nullable(),
          outcomes: z.array(z.object({ callId: str, op: str, status: str, content: ValueSlotView }).strict()).nullable(),
          transcript: z.array(MessageView).nullable(),
          artifact: ValueSlotView.nullable(),
          evidence: z.array(ValueSlotView).nullable(),
        })
        .strict(),
      contribution: ValueSlotView,
      notApplied: z.array(z.object({ key: str, reason: str }).strict()),
      effects: z.object({ asked: z.array(str), granted: z.array(str), missing: z.array(str) }).strict(),
      error: ErrorInfoView.nullable(),
      stdout: str.nullable(),
      stderr: str.nullable(),
      durationMs: z.number(),
      rebuilt,
    })
    .strict(),
  z
    .object({
      kind: z.literal('model'),
      seq,
      id: str,
      request: z.object({ messages: z.array(MessageView), tools: ValueSlotView, responseFormat: ValueSlotView }).strict(),
      response: turnView,
      latencyMs: z.number(),
      cost: z.number().nullable(),
      tokensNotReported: z.boolean(),
      rebuilt,
    })
    .strict(),
  z
    .object({
      kind: z.literal('tool'),
      seq,
      id: str,
      op: str,
      status: str,
      args: ValueSlotView,
      output: ValueSlotView,
      outcome: ValueSlotView.nullable(),
      error: ErrorInfoView.nullable(),
      durationMs: z.number(),
      rebuilt,
    })
    .strict(),
  z
    .object({
      kind: z.literal('processor'),
      seq,
      id: str,
      type: str,
      status: str,
      onError: str.nullable(),
      definition: ValueSlotView,
      input: ValueSlotView,
      output: ValueSlotView,
      error: ErrorInfoView.nullable(),
      stdout: str.nullable(),
      stderr: str.nullable(),
      durationMs: z.number(),
      rebuilt,
    })
    .strict(),
  z.object({ kind: z.literal('event'), seq, id: str, type: str, summary: str, data: ValueSlotView }).strict(),
]);
export type RunItemView = z.infer<typeof RunItemView>;

/** `GET /api/runs/<id>/value?seq=K&path=P`: one value in full */
export const RunValueView = z.object({ runId: str, seq, path: str, value: json }).strict();
export type RunValueView = z.infer<typeof RunValueView>;

// ---------------------------------------------------------------- ties to the kernel's types

type Tie<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type ReportParses = [Kr.RunReport] extends [RunReportView] ? true : false;
type SameKeys = [Exclude<keyof Kr.RunReport, keyof RunReportView> | Exclude<keyof RunReportView, keyof Kr.RunReport>] extends [never] ? true : false;
type V<T extends z.ZodType> = z.infer<T>;
type Item<K extends string> = Extract<Ki.RunItemView, { kind: K }>;
type ItemView<K extends string> = Extract<RunItemView, { kind: K }>;
/**
 * A type error here names the view whose kernel type differs. Each piece is tied on its own: on a
 * whole tree the compiler gives up comparing deep recursive JSON types and calls them equal.
 */
const VIEW_TIES: Record<string, true> = {
  report: true as ReportParses extends true ? SameKeys : false,
  trace: true as Tie<Kt.TimelineTrace, V<typeof TimelineTraceView>>,
  toolCall: true as Tie<Kt.TimelineToolCall, V<typeof TimelineToolCallView>>,
  modelTurn: true as Tie<Kt.TimelineModelTurn, V<typeof TimelineModelTurnView>>,
  round: true as Tie<Omit<Kt.TimelineRound, 'lanes' | 'model' | 'tools'>, Omit<V<typeof TimelineRoundView>, 'lanes' | 'model' | 'tools'>>,
  step: true as Tie<Kt.TimelineStep, V<typeof TimelineStepView>>,
  visit: true as Tie<Omit<Kt.TimelineVisit, 'pre' | 'rounds'>, Omit<V<typeof TimelineVisitView>, 'pre' | 'rounds'>>,
  timeline: true as Tie<Omit<Kt.RunTimeline, 'report' | 'visits' | 'post' | 'program'>, Omit<RunTimelineView, 'report' | 'visits' | 'post' | 'program'>>,
  message: true as Tie<Ki.MessageView, MessageView>,
  state: true as Tie<Omit<Ki.RunStateView, 'transcript'>, Omit<RunStateView, 'transcript'>>,
  stage: true as Tie<Omit<Item<'stage'>, 'context'>, Omit<ItemView<'stage'>, 'context'>>,
  context: true as Tie<Omit<Ki.StageContextView, 'messages' | 'transcript'>, Omit<ItemView<'stage'>['context'], 'messages' | 'transcript'>>,
  model: true as Tie<Omit<Item<'model'>, 'request'>, Omit<ItemView<'model'>, 'request'>>,
  tool: true as Tie<Item<'tool'>, ItemView<'tool'>>,
  processor: true as Tie<Item<'processor'>, ItemView<'processor'>>,
  event: true as Tie<Item<'event'>, ItemView<'event'>>,
};
void VIEW_TIES;
