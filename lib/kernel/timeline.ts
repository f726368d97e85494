/**
 * The run's timeline, as the run page draws it: phase visits → model rounds →
 * the five rung lanes with their stage traces (and the stages of the program
 * that did not run, with why), the model turn and the tool calls between the
 * lanes, and the pre/postprocessor steps with the on_error branch each took;
 * tokens, latency and cost per round, visit and run; the failures in order,
 * and the one to open the page on. Built from the fold — so from the events —
 * never from a model.
 *
 * Items are named by the kernel's positions (`draft/r2/model`,
 * `draft/r1/pre-tool/guard`, `__post__/3`, `draft/pre/0`, a visit's key), the
 * same ids the state and detail views use; labels are the accessible names
 * the page shows (`post-tool result_budget/result_budget ok`,
 * `__post__/2 validate failed`). Free values are slots (values.ts): the
 * timeline of a 10,000-event run holds words and sizes, not its data.
 *
 * Does not: rebuild inputs (rebuild.ts; the detail view asks for one item).
 */
import { PHASE_LADDER, type OnError, type Rung } from './plan';
import type { ProgramStage, StageStepData, ToolStepData } from './events';
import type { RunStatus, TraceStatus } from './ports';
import type { RunReport } from './report';
import { deriveReport } from './report';
import { errorInfo, type ErrorInfo } from './error-info';
import { valueAt, type ChainRec, type ChainStepRec, type Rec, type RoundRec, type RunFold, type VisitRec } from './fold';
import { denialsAt, outcomesAt } from './fold-transcript';
import { branchOf, stageSummary, stepSummary, toolSummary, turnSummary } from './summaries';
import { costOf, type AppliedPrice } from './prices';
import { pointer, slot, type ValueSlot } from './values';
import { isJsonObject } from './json';
import { isUsageUnreported } from './turn-usage';
import { answeredFromLog, bundleRoots } from './provenance';

export { bundleRoots };

/**
 * What the model turns of this run used: tokens, latency, price — the turns answered from another
 * run's recording (a fork's or a replay's turns before its point) included, as compare and the CLI
 * count them; `reused` says how many of the turns were such (they took no time and were paid for
 * by the run that recorded them).
 */
export type Usage = {
  /** the tokens of the turns that said what they used (a turn that did not is in `tokensNotReported`) */
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  /** null without a price, and when some turn did not report its tokens (a price times unknown tokens is unknown) */
  cost: number | null;
  reused: number;
  /**
   * Only when some turn's endpoint answered without its usage (turn-usage.ts): how many turns did
   * not report, of how many counted, and the cost of those that did (null without a price). Absent
   * when every turn reported, so a run's usage reads as it always did.
   */
  tokensNotReported?: TokensNotReported;
};

export type TokensNotReported = { turns: number; of: number; reportedCost: number | null };

/**
 * A replay's or fork's step answered from its parent's recording, not run in this run: the run and
 * the event it came from (`runId` null: a recording of unknown origin); `edited`: the step at the
 * fork point, answered with the value the fork was given in place of the recorded one.
 */
export type FromRecording = { runId: string | null; seq: number; edited: boolean };

/** where a step record came from, when a recording answered it */
function fromRecordingOf(d: { recorded?: { runId: string | null; seq: number }; edited?: true } | undefined): FromRecording | null {
  return d?.recorded ? { runId: d.recorded.runId, seq: d.recorded.seq, edited: d.edited === true } : null;
}

export type TimelineTrace = {
  id: string;
  seq: number | null;
  rung: Rung;
  capability: string;
  stage: string;
  status: TraceStatus;
  /** `<rung> <capability>/<stage> <status>` */
  label: string;
  summary: string;
  notApplied: { key: string; reason: string }[];
  effects: { asked: string[]; granted: string[]; missing: string[] };
  error: ErrorInfo | null;
  durationMs: number | null;
  /** skill.md line of the capability's declaration */
  line: number | null;
  /** the seq of the resume that answered it from the log (null: executed where it is recorded) */
  answeredFromLog: number | null;
  fromRecording: FromRecording | null;
};

export type TimelineToolCall = {
  id: string;
  seq: number | null;
  index: number;
  callId: string;
  op: string;
  status: 'ok' | 'error' | 'denied' | 'refused' | 'pending';
  summary: string;
  /** characters of the outcome the model reads */
  size: number | null;
  durationMs: number | null;
  /** the pre-tool stage that denied the call */
  deniedBy: { stage: string; seq: number } | null;
  answeredFromLog: number | null;
  fromRecording: FromRecording | null;
};

export type TimelineModelTurn = {
  id: string;
  seq: number;
  round: number;
  summary: string;
  /** the start of the turn's text (the detail view has all of it) */
  text: string;
  textSize: number;
  toolCalls: { id: string; op: string }[];
  finished: boolean;
  usage: { inputTokens: number; outputTokens: number } | null;
  latencyMs: number;
  cost: number | null;
  answeredFromLog: number | null;
  fromRecording: FromRecording | null;
};

export type TimelineLane = { rung: Rung; traces: TimelineTrace[] };

export type TimelineRound = {
  id: string;
  round: number;
  seq: number;
  /** the five rungs, in ladder order */
  lanes: TimelineLane[];
  model: TimelineModelTurn | null;
  tools: TimelineToolCall[];
  /** the finish artifact this round offered failed its schema: why (the next round is told) */
  rejected: { seq: number; errors: string } | null;
  usage: Usage;
};

export type TimelineStep = {
  id: string;
  seq: number;
  position: string;
  phase: string;
  index: number;
  type: string;
  status: string;
  onError: OnError | null;
  /** the on_error branch taken: none (it succeeded), fail (the run stopped), skip, empty */
  branch: 'none' | 'fail' | 'skip' | 'empty';
  /** `<position> <type> <status>` */
  label: string;
  summary: string;
  error: ErrorInfo | null;
  durationMs: number;
  line: number | null;
  answeredFromLog: number | null;
  fromRecording: FromRecording | null;
  /** an iterate's steps, counted (they are listed in its detail) */
  nested: { steps: number; failed: number; skipped: number; empty: number } | null;
};

export type TimelineChain = { id: string; phase: string; steps: TimelineStep[] };

export type TimelineVisit = {
  id: string;
  phase: string;
  visit: number;
  startSeq: number;
  endSeq: number | null;
  status: RunStatus;
  pre: TimelineChain | null;
  rounds: TimelineRound[];
  finish: { seq: number; artifact: ValueSlot; next: string | null } | null;
  overrides: { seq: number; field: string; fact: string }[];
  usage: Usage;
};

export type RunTimeline = {
  runId: string;
  lastSeq: number;
  status: RunStatus;
  skill: string;
  model: string;
  report: RunReport;
  program: ProgramStage[];
  visits: TimelineVisit[];
  post: TimelineChain | null;
  resumes: { seq: number; fromSeq: number; currentPhase: string }[];
  /** ids of what failed, was refused, denied or took an on_error branch, in run order ("next failure") */
  failures: string[];
  /** the item to open the page on: what ended the run, or what blocked it (`run`: a failure of the run itself, shown by the report) */
  selected: string | null;
  usage: Usage;
  price: AppliedPrice | null;
  /** every visit in a few words, in run order: what a page that holds only a window of `visits` lists for the rest */
  outline: VisitOutline[];
  /** the visits `visits` holds: outline[from..to) (all of them, as built; timeline-window.ts cuts a window) */
  window: { from: number; to: number };
};

/** a visit as the outline names it: enough to list it (and size its row) before its window is read */
export type VisitOutline = { id: string; phase: string; visit: number; status: RunStatus; rounds: number };

export type TimelineOptions = { price?: AppliedPrice | null };

export function buildTimeline(fold: RunFold, opts: TimelineOptions = {}): RunTimeline {
  const price = opts.price ?? null;
  const report = deriveReport(fold.events);
  const roots = bundleRoots(fold);
  const answered = answeredFromLog(fold);
  const status = valueAt(fold.statuses, fold.lastSeq, 'running');
  const ctx: Ctx = { fold, roots, answered, price, status };
  const visits = fold.visits.map((v) => visitView(ctx, v));
  const post = fold.post ? chainView(ctx, fold.post) : null;
  const failures = failuresOf(visits, post);
  const usage = sum(visits.map((v) => v.usage), turnsOf(visits.flatMap((v) => v.rounds)));
  return {
    runId: fold.runId,
    lastSeq: fold.lastSeq,
    status,
    skill: fold.started?.data.skill ?? '',
    model: fold.started?.data.model ?? '',
    report,
    program: valueAt(fold.programs, fold.lastSeq, []),
    visits,
    post,
    resumes: fold.resumes.map((r) => ({ seq: r.seq, fromSeq: r.data.fromSeq, currentPhase: r.data.currentPhase })),
    failures,
    selected: selectedOf(report, failures),
    usage,
    price,
    outline: visits.map((v) => ({ id: v.id, phase: v.phase, visit: v.visit, status: v.status, rounds: v.rounds.length })),
    window: { from: 0, to: visits.length },
  };
}

type Ctx = { fold: RunFold; roots: string[]; answered: Map<number, number>; price: AppliedPrice | null; status: RunStatus };


function visitView(ctx: Ctx, v: VisitRec): TimelineVisit {
  const rounds = v.rounds.map((r) => roundView(ctx, v, r));
  const done = v.completed;
  return {
    id: v.key,
    phase: v.phase,
    visit: v.visit,
    startSeq: v.startSeq,
    endSeq: v.endSeq,
    status: done ? 'completed' : ctx.status,
    pre: v.pre ? chainView(ctx, v.pre) : null,
    rounds,
    finish: done ? { seq: done.seq, artifact: slot(done.data.artifact, { seq: done.seq, path: pointer('event', 'data', 'artifact') }), next: done.data.next } : null,
    overrides: v.overrides.map((o) => ({ seq: o.seq, field: o.data.field, fact: o.data.fact })),
    usage: sum(rounds.map((r) => r.usage), turnsOf(rounds)),
  };
}

function roundView(ctx: Ctx, v: VisitRec, round: RoundRec): TimelineRound {
  const { fold } = ctx;
  const program = valueAt(fold.programs, round.firstSeq, []);
  const latest = latestStages(round);
  const outcomes = outcomesAt(round, fold.lastSeq);
  const failedRung = PHASE_LADDER.find((rung) => latest.some((s) => s.data.rung === rung && s.data.status === 'failed')) ?? null;
  const lanes = PHASE_LADDER.map((rung): TimelineLane => {
    const traces = latest.filter((s) => s.data.rung === rung).map((s) => traceView(ctx, s, outcomes));
    for (const p of program) {
      if (p.rung !== rung || traces.some((t) => t.stage === p.name)) continue;
      const why = skippedBecause(ctx, round, rung, failedRung);
      if (why) traces.push(skippedTrace(round, p, why));
    }
    return { rung, traces };
  });
  const m = round.model;
  const turn = m?.data.output;
  // a turn answered from the recording was run (and paid for) by the run it was recorded in
  const reused = m !== null && m !== undefined && isJsonObject(m.data.recorded) ? 1 : 0;
  const usage: Usage = { inputTokens: turn?.usage?.inputTokens ?? 0, outputTokens: turn?.usage?.outputTokens ?? 0, latencyMs: m?.data.durationMs ?? 0, cost: costOf(turn?.usage, ctx.price), reused };
  if (isUsageUnreported(m?.data, turn)) usage.tokensNotReported = { turns: 1, of: 1, reportedCost: ctx.price ? 0 : null };
  const deny = denialsAt(round, fold.lastSeq);
  return {
    id: round.id,
    round: round.round,
    seq: round.firstSeq,
    lanes,
    model: m && turn
      ? {
          id: m.data.position,
          seq: m.seq,
          round: round.round,
          summary: turnSummary(turn),
          text: turn.text.slice(0, 280),
          textSize: turn.text.length,
          toolCalls: turn.toolCalls.map((c) => ({ id: c.id, op: c.op })),
          finished: Boolean(turn.finish) && turn.toolCalls.length === 0,
          usage: turn.usage ?? null,
          latencyMs: m.data.durationMs,
          cost: usage.cost,
          answeredFromLog: ctx.answered.get(m.seq) ?? null,
          fromRecording: fromRecordingOf(m.data),
        }
      : null,
    tools: (turn?.toolCalls ?? []).map((c, i): TimelineToolCall => {
      const rec: Rec<ToolStepData> | undefined = round.tools[i]?.[round.tools[i].length - 1];
      const o = outcomes[i] ?? null;
      const status: TimelineToolCall['status'] = o?.status === 'denied' ? 'denied' : rec?.data.status === 'refused' ? 'refused' : (o?.status ?? 'pending');
      return {
        id: `${round.id}/tool/${i}`,
        seq: rec?.seq ?? null,
        index: i,
        callId: c.id,
        op: c.op,
        status,
        summary: toolSummary(o, rec?.data ?? null, deny.get(i)?.stage ?? null),
        size: o ? o.content.length : null,
        durationMs: rec?.data.durationMs ?? null,
        deniedBy: deny.has(i) ? { stage: deny.get(i)!.stage, seq: deny.get(i)!.seq } : null,
        answeredFromLog: rec ? (ctx.answered.get(rec.seq) ?? null) : null,
        fromRecording: fromRecordingOf(rec?.data),
      };
    }),
    rejected: round.rejected ? { seq: round.rejected.seq, errors: round.rejected.data.errors } : null,
    usage,
  };
}

/** a round's stage records, the latest at each position, in the order they ran */
function latestStages(round: RoundRec): Rec<StageStepData>[] {
  const byPosition = new Map<string, Rec<StageStepData>>();
  for (const s of round.stages) byPosition.set(s.data.position, s);
  return [...byPosition.values()].sort((a, b) => PHASE_LADDER.indexOf(a.data.rung) - PHASE_LADDER.indexOf(b.data.rung) || a.seq - b.seq);
}

function traceView(ctx: Ctx, s: Rec<StageStepData>, outcomes: ReturnType<typeof outcomesAt>): TimelineTrace {
  const d = s.data;
  const asked = d.definition.effects;
  const missing = d.missing ?? [];
  const line = valueAt(ctx.fold.programs, s.seq, []).find((p) => p.name === d.stage)?.line ?? null;
  return {
    id: d.position,
    seq: s.seq,
    rung: d.rung,
    capability: d.capability,
    stage: d.stage,
    status: d.status,
    label: `${d.rung} ${d.capability}/${d.stage} ${d.status}`,
    summary: stageSummary(d, outcomes, ctx.roots),
    notApplied: d.notApplied ?? [],
    effects: { asked, granted: d.granted ?? asked.filter((e) => !missing.includes(e)), missing },
    error: d.status === 'failed' && 'error' in d.output ? errorInfo(d.output.error, ctx.roots) : null,
    durationMs: d.durationMs,
    line,
    answeredFromLog: ctx.answered.get(s.seq) ?? null,
    fromRecording: fromRecordingOf(d),
  };
}

function skippedTrace(round: RoundRec, p: ProgramStage, why: string): TimelineTrace {
  return {
    id: `${round.id}/${p.rung}/${p.name}`,
    seq: null,
    rung: p.rung,
    capability: p.capability,
    stage: p.name,
    status: 'skipped',
    label: `${p.rung} ${p.capability}/${p.name} skipped`,
    summary: `skipped: ${why}`,
    notApplied: [],
    effects: { asked: p.effects, granted: [], missing: [] },
    error: null,
    durationMs: null,
    line: p.line ?? null,
    answeredFromLog: null,
    fromRecording: null,
  };
}

/** Why a stage of the program has no record on this rung of this round (null: it may still run). */
function skippedBecause(ctx: Ctx, round: RoundRec, rung: Rung, failedRung: Rung | null): string | null {
  const ended = ctx.status !== 'running';
  if (failedRung && PHASE_LADDER.indexOf(rung) > PHASE_LADDER.indexOf(failedRung)) return `a stage failed on the ${failedRung} rung; the round stopped there`;
  const turn = round.model?.data.output;
  if (!turn) return ended && rung !== 'prompt-assembly' ? `the run ended (${ctx.status}) before the model turn of round ${round.round}` : null;
  const calls = turn.toolCalls.length;
  if ((rung === 'pre-tool' || rung === 'post-tool') && calls === 0) return 'no tool calls this round';
  if (rung === 'finalize' && calls > 0) return 'the model called tools this round; finalize runs on the round it finishes';
  if (rung === 'finalize' && !turn.finish) return 'the model did not finish this round';
  return ended ? `the run ended (${ctx.status}) before this rung` : null;
}

function chainView(ctx: Ctx, chain: ChainRec): TimelineChain {
  const latest = new Map<string, ChainStepRec>();
  for (const s of chain.steps) latest.set(s.data.position, s);
  const nestedOf = (position: string) => ctx.fold.processors.filter((p) => p.data.nested && p.data.position.startsWith(`${position}/`));
  const steps = [...latest.values()].sort((a, b) => a.data.index - b.data.index).map((s): TimelineStep => {
    const d = s.data;
    const nested = d.type === 'iterate' ? nestedOf(d.position) : null;
    const err = isJsonObject(d.output) && isJsonObject(d.output.error) ? errorInfo(d.output.error, ctx.roots) : null;
    return {
      id: d.position,
      seq: s.seq,
      position: d.position,
      phase: d.phase,
      index: d.index,
      type: d.type,
      status: d.status,
      onError: d.onError ?? (d.status === 'failed' ? 'fail' : d.status === 'skipped' ? 'skip' : d.status === 'empty' ? 'empty' : null),
      branch: branchOf(d),
      label: `${d.position} ${d.type} ${d.status}`,
      summary: stepSummary(d, ctx.roots),
      error: err,
      durationMs: d.durationMs,
      line: d.line ?? null,
      answeredFromLog: ctx.answered.get(s.seq) ?? null,
      fromRecording: fromRecordingOf(d),
      nested: nested
        ? {
            steps: nested.length,
            failed: nested.filter((n) => n.data.status === 'failed').length,
            skipped: nested.filter((n) => n.data.status === 'skipped').length,
            empty: nested.filter((n) => n.data.status === 'empty').length,
          }
        : null,
    };
  });
  return { id: chain.prefix, phase: chain.phase, steps };
}

function failuresOf(visits: TimelineVisit[], post: TimelineChain | null): string[] {
  const found: { seq: number; id: string }[] = [];
  const chainFailures = (c: TimelineChain | null) => {
    for (const s of c?.steps ?? []) if (s.branch !== 'none' || (s.nested && s.nested.failed + s.nested.skipped + s.nested.empty > 0)) found.push({ seq: s.seq, id: s.id });
  };
  for (const v of visits) {
    chainFailures(v.pre);
    for (const r of v.rounds) {
      for (const lane of r.lanes) for (const t of lane.traces) if (t.seq !== null && (t.status === 'failed' || t.status === 'refused')) found.push({ seq: t.seq, id: t.id });
      for (const t of r.tools) if (t.status !== 'ok' && t.status !== 'pending') found.push({ seq: t.seq ?? t.deniedBy?.seq ?? r.seq, id: t.id });
    }
  }
  chainFailures(post);
  return found.sort((a, b) => a.seq - b.seq).map((f) => f.id);
}

/** what a failed run opens on: what ended it; a blocked one: what blocked it */
function selectedOf(report: RunReport, failures: string[]): string | null {
  const at = report.error?.position ?? report.blocked_by?.position ?? null;
  if (at) {
    // a step inside an iterate is shown by its top-level step
    return failures.find((f) => at === f || at.startsWith(`${f}/`)) ?? at;
  }
  // a failure of the run itself (a model error, max_rounds, a contract): the report says it
  if (report.status === 'failed' || report.attention === 'aborted') return 'run';
  return null;
}

/** the model turns of these rounds: what a sum's `tokensNotReported.of` counts */
const turnsOf = (rounds: TimelineRound[]): number => rounds.filter((r) => r.model !== null).length;

/** usages summed over `turns` model turns; a turn that did not report its tokens makes the cost unknown */
const sum = (us: Usage[], turns: number): Usage => {
  const costs = us.map((u) => (u.tokensNotReported ? u.tokensNotReported.reportedCost : u.cost)).filter((c): c is number => c !== null);
  const cost = costs.length ? costs.reduce((a, b) => a + b, 0) : null;
  const unreported = us.reduce((n, u) => n + (u.tokensNotReported?.turns ?? 0), 0);
  return {
    inputTokens: us.reduce((n, u) => n + u.inputTokens, 0),
    outputTokens: us.reduce((n, u) => n + u.outputTokens, 0),
    latencyMs: us.reduce((n, u) => n + u.latencyMs, 0),
    cost: unreported ? null : cost,
    reused: us.reduce((n, u) => n + u.reused, 0),
    ...(unreported ? { tokensNotReported: { turns: unreported, of: turns, reportedCost: cost } } : {}),
  };
};
