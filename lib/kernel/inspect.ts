/**
 * The inspector's views of one run, built from its fold: the state at event k
 * with what that event changed (the scrubber), the detail of one item — a
 * stage with the context it was handed, a model turn with the request it was
 * sent, a tool call, a processor step with its input (the detail panel) — and
 * one large value in full (`valueAt`). Every free value is a slot (values.ts):
 * small ones inline, large ones referenced by `{ seq, path }`, which `valueAt`
 * answers from the same documents.
 *
 * Does not: hold runs or read the store (lib/server caches folds per run), or
 * build the timeline (timeline.ts).
 */
import type { Json, JsonObject } from './json';
import { isJsonObject } from './json';
import type { Message, ModelTurn, RunEvent, ToolCall } from './ports';
import type { ModelStepData, ProcessorStepData, StageStepData, ToolStepData } from './events';
import type { RunFold } from './fold';
import { splitRoundPosition } from './fold';
import { changedPaths, itemOf, stateAt, type RunState, type StateMessage } from './fold-state';
import { outcomesAt } from './fold-transcript';
import { rebuildStep, type Rebuilt } from './rebuild';
import { eventSummary, eventSummaryWhole } from './summaries';
import { errorInfo, printedText, type ErrorInfo } from './error-info';
import { bundleRoots } from './timeline';
import { costOf, type AppliedPrice } from './prices';
import { isUsageUnreported } from './turn-usage';
import { pointer, resolvePointer, slot, type ValueSlot } from './values';

export type MessageView = {
  id: string;
  /** the seq it entered at, and of its last post-tool rewrite (and by which stage) */
  seq: number | null;
  editedSeq: number | null;
  editedBy: string | null;
  role: Message['role'];
  content: ValueSlot;
  toolCallId: string | null;
  op: string | null;
  toolCalls: { id: string; op: string; args: ValueSlot }[] | null;
  /** the phase's input, edited at a fork's point (fold-state.ts StateMessage) */
  editedAt?: string;
  editedOver?: string | null;
};

export type ChainView = { prefix: string; phase: string; value: ValueSlot; step: string | null; stepStatus?: 'failed' | 'skipped'; element: { prefix: string; value: ValueSlot; step: string } | null };

export type RunStateView = Omit<RunState, 'resume' | 'transcript' | 'chain' | 'workspace' | 'output' | 'error'> & {
  resume: { currentPhase: string; seq: number; data: ValueSlot } | null;
  transcript: MessageView[];
  chain: ChainView | null;
  workspace: { path: string; seq: number; content: ValueSlot }[];
  output: ValueSlot | null;
  error: ErrorInfo | null;
  /** what event `seq` changed: in words, and which parts of the state (JSON pointers) differ from seq - 1;
   * `whole`: the words with nothing they quote cut short, when `summary` cut something */
  change: { summary: string; paths: string[]; whole?: string };
};

/** The state at k, for the browser: large values referenced, and what event k changed. */
export function stateView(fold: RunFold, k: number): RunStateView {
  const s = stateAt(fold, k);
  const prev = s.seq > 0 ? stateAt(fold, s.seq - 1) : s;
  const ref = (...path: (string | number)[]) => ({ seq: s.seq, path: pointer('state', ...path) });
  const event = s.seq > 0 ? fold.events[s.seq - 1] : null;
  return {
    ...s,
    resume: s.resume ? { currentPhase: s.resume.currentPhase, seq: s.resume.seq, data: slot(s.resume.data, ref('resume', 'data')) } : null,
    transcript: s.transcript.map((m, i) => messageView(m, (...p) => ref('transcript', i, ...p))),
    chain: s.chain
      ? {
          prefix: s.chain.prefix,
          phase: s.chain.phase,
          value: slot(s.chain.value, ref('chain', 'value')),
          step: s.chain.step,
          ...(s.chain.stepStatus ? { stepStatus: s.chain.stepStatus } : {}),
          element: s.chain.element ? { ...s.chain.element, value: slot(s.chain.element.value, ref('chain', 'element', 'value')) } : null,
          ...(s.chain.editedAt ? { editedAt: s.chain.editedAt } : {}),
          ...(s.chain.editedOver !== undefined ? { editedOver: s.chain.editedOver } : {}),
        }
      : null,
    workspace: s.workspace.map((w, i) => ({ path: w.path, seq: w.seq, content: slot(w.content, ref('workspace', i, 'content')) })),
    output: s.output === null ? null : slot(s.output, ref('output')),
    error: s.error ? errorInfo(s.error, bundleRoots(fold)) : null,
    change: changeOf(fold, event, s.seq > 0 ? changedPaths(prev, s) : []),
  };
}

/** what an event changed, in words (whole when the line cut something) and as paths */
function changeOf(fold: RunFold, event: RunEvent | null, paths: string[]): RunStateView['change'] {
  if (!event) return { summary: 'before the run', paths };
  const summary = eventSummary(event.type, event.data, bundleRoots(fold));
  const whole = eventSummaryWhole(event.type, event.data, bundleRoots(fold));
  return whole === summary ? { summary, paths } : { summary, paths, whole };
}

function messageView(m: StateMessage | (Message & { id: string; seq: number | null }), ref: (...p: (string | number)[]) => { seq: number; path: string }): MessageView {
  const sm = m as Partial<StateMessage> & Message & { id: string };
  const calls = m.role === 'assistant' ? (m.toolCalls ?? null) : null;
  return {
    id: sm.id,
    seq: sm.seq ?? null,
    editedSeq: sm.editedSeq ?? null,
    editedBy: sm.editedBy ?? null,
    role: m.role,
    content: slot(m.content, ref('content')),
    toolCallId: m.role === 'tool' ? m.toolCallId : null,
    op: m.role === 'tool' ? m.op : null,
    toolCalls: calls ? calls.map((c, i) => ({ id: c.id, op: c.op, args: slot(c.args, ref('toolCalls', i, 'args')) })) : null,
    ...(sm.editedAt !== undefined ? { editedAt: sm.editedAt, editedOver: sm.editedOver ?? null } : {}),
  };
}

// ---------------------------------------------------------------- one item's detail

export type Rebuild = { verified: boolean };

export type TurnView = { text: ValueSlot; toolCalls: { id: string; op: string; args: ValueSlot }[]; finish: ValueSlot | null; usage: { inputTokens: number; outputTokens: number } | null };

export type StageContextView = {
  runId: string;
  phase: string;
  round: number;
  rung: string;
  stage: string;
  with: ValueSlot;
  messages: MessageView[] | null;
  turn: TurnView | null;
  requests: { id: string; op: string; args: ValueSlot }[] | null;
  outcomes: { callId: string; op: string; status: string; content: ValueSlot }[] | null;
  transcript: MessageView[] | null;
  artifact: ValueSlot | null;
  evidence: ValueSlot[] | null;
};

export type RunItemView =
  | {
      kind: 'stage';
      seq: number;
      id: string;
      status: string;
      definition: ValueSlot;
      context: StageContextView;
      contribution: ValueSlot;
      notApplied: { key: string; reason: string }[];
      effects: { asked: string[]; granted: string[]; missing: string[] };
      error: ErrorInfo | null;
      /** what a module capability printed (its record's `stdout` / `stderr`), as a code step's; null for a stream it left empty */
      stdout: string | null;
      stderr: string | null;
      durationMs: number;
      rebuilt: Rebuild;
    }
  | {
      kind: 'model';
      seq: number;
      id: string;
      request: { messages: MessageView[]; tools: ValueSlot; responseFormat: ValueSlot };
      response: TurnView;
      latencyMs: number;
      cost: number | null;
      /** an endpoint answered without its usage: tokens spent, not said (a script's turn without usage spent none) */
      tokensNotReported: boolean;
      rebuilt: Rebuild;
    }
  | { kind: 'tool'; seq: number; id: string; op: string; status: string; args: ValueSlot; output: ValueSlot; outcome: ValueSlot | null; error: ErrorInfo | null; durationMs: number; rebuilt: Rebuild }
  | {
      kind: 'processor';
      seq: number;
      id: string;
      type: string;
      status: string;
      onError: string | null;
      definition: ValueSlot;
      input: ValueSlot;
      output: ValueSlot;
      error: ErrorInfo | null;
      /** what a code step printed (its record's `stdout` / `stderr`), bundle paths relative; null for a stream it left empty */
      stdout: string | null;
      stderr: string | null;
      durationMs: number;
      rebuilt: Rebuild;
    }
  | { kind: 'event'; seq: number; id: string; type: string; summary: string; data: ValueSlot };

/** The raw document of the item recorded at seq (what `item/…` pointers point into). */
export function itemDocument(fold: RunFold, seq: number): JsonObject | null {
  const e = fold.events[seq - 1];
  if (!e) return null;
  if (e.type !== 'step_completed') return { data: e.data };
  const r = rebuildStep(fold, seq);
  const d = e.data;
  const base: JsonObject = { definition: (d.definition ?? null) as Json, output: (d.output ?? null) as Json };
  if (!r) return base;
  switch (r.kind) {
    case 'stage':
      return { ...base, context: r.context as unknown as Json };
    case 'model':
      return { ...base, request: r.request as unknown as Json, response: d.output as Json };
    case 'tool':
      return { ...base, args: r.args, outcome: toolOutcome(fold, seq) as unknown as Json };
    case 'processor':
      return { ...base, input: r.input };
  }
}

/** The detail of the item recorded at seq; null past the log. */
export function itemView(fold: RunFold, seq: number, opts: { price?: AppliedPrice | null } = {}): RunItemView | null {
  const e = fold.events[seq - 1];
  if (!e) return null;
  const ref = (...p: (string | number)[]) => ({ seq, path: pointer('item', ...p) });
  const roots = bundleRoots(fold);
  if (e.type !== 'step_completed') {
    return { kind: 'event', seq, id: itemOf(e.type, e.data), type: e.type, summary: eventSummary(e.type, e.data, roots), data: slot(e.data, ref('data')) };
  }
  const r: Rebuilt | null = rebuildStep(fold, seq);
  const rebuilt = { verified: r?.verified ?? false };
  const d = e.data;
  const errOf = (o: Json | undefined) => (isJsonObject(o) && (isJsonObject(o.error) || typeof o.error === 'string') ? errorInfo(o.error, roots) : null);
  switch (d.kind) {
    case 'stage': {
      const s = d as unknown as StageStepData;
      const missing = s.missing ?? [];
      return {
        kind: 'stage',
        seq,
        id: s.position,
        status: s.status,
        definition: slot(s.definition, ref('definition')),
        context: contextView(r?.kind === 'stage' ? r.context : null, s, ref),
        contribution: slot('contribution' in s.output ? s.output.contribution : null, ref('output', 'contribution')),
        notApplied: s.notApplied ?? [],
        effects: { asked: s.definition.effects, granted: s.granted ?? s.definition.effects.filter((x) => !missing.includes(x)), missing },
        error: 'error' in s.output ? errorInfo(s.output.error, roots) : null,
        stdout: printedText(s.stdout, roots),
        stderr: printedText(s.stderr, roots),
        durationMs: s.durationMs,
        rebuilt,
      };
    }
    case 'model': {
      const m = d as unknown as ModelStepData;
      const req = r?.kind === 'model' ? r.request : null;
      return {
        kind: 'model',
        seq,
        id: m.position,
        request: {
          messages: (req?.messages ?? []).map((msg, i) => messageView({ ...msg, id: `${m.position}/m${i}`, seq: null }, (...p) => ref('request', 'messages', i, ...p))),
          tools: slot((req?.tools ?? []) as unknown as Json, ref('request', 'tools')),
          responseFormat: slot(req?.responseFormat ?? null, ref('request', 'responseFormat')),
        },
        response: turnView(m.output, (...p) => ref('response', ...p)),
        latencyMs: m.durationMs,
        cost: costOf(m.output.usage, opts.price ?? null),
        tokensNotReported: isUsageUnreported(m, m.output),
        rebuilt,
      };
    }
    case 'tool': {
      const t = d as unknown as ToolStepData;
      const outcome = toolOutcome(fold, seq);
      return {
        kind: 'tool',
        seq,
        id: t.position,
        op: t.op,
        status: t.status,
        args: slot(r?.kind === 'tool' ? r.args : null, ref('args')),
        output: slot(t.output, ref('output')),
        outcome: outcome ? slot(outcome.content, ref('outcome', 'content')) : null,
        error: errOf(t.output),
        durationMs: t.durationMs,
        rebuilt,
      };
    }
    case 'processor': {
      const p = d as unknown as ProcessorStepData;
      return {
        kind: 'processor',
        seq,
        id: p.position,
        type: p.type,
        status: p.status,
        onError: p.onError ?? null,
        definition: slot(p.definition, ref('definition')),
        input: slot(r?.kind === 'processor' ? r.input : null, ref('input')),
        output: slot(p.output, ref('output')),
        error: errOf(p.output),
        stdout: printedText(p.stdout, roots),
        stderr: printedText(p.stderr, roots),
        durationMs: p.durationMs,
        rebuilt,
      };
    }
  }
  return null;
}

/** One value in full: `state/…` at seq, `item/…` of the item at seq, or `event/…` (values.ts). */
export function valueAt(fold: RunFold, seq: number, path: string): Json | undefined {
  const root = path.split('/')[0];
  if (seq < 0 || seq > fold.lastSeq) return undefined;
  if (root === 'state') return resolvePointer(stateAt(fold, seq), path);
  if (root === 'item') return resolvePointer(itemDocument(fold, seq), path);
  if (root === 'event') return seq === 0 ? undefined : resolvePointer(fold.events[seq - 1], path);
  return undefined;
}

function toolOutcome(fold: RunFold, seq: number) {
  const d = fold.events[seq - 1].data as unknown as ToolStepData;
  const { visitKey, round } = splitRoundPosition(d.position);
  const r = visitKey === null ? undefined : fold.visitOf(visitKey)?.rounds.find((x) => x.round === round);
  if (!r || d.index === undefined) return null;
  return outcomesAt(r, seq)[d.index] ?? null;
}

function turnView(t: ModelTurn, ref: (...p: (string | number)[]) => { seq: number; path: string }): TurnView {
  return {
    text: slot(t.text, ref('text')),
    toolCalls: t.toolCalls.map((c: ToolCall, i) => ({ id: c.id, op: c.op, args: slot(c.args, ref('toolCalls', i, 'args')) })),
    finish: t.finish ? slot(t.finish, ref('finish')) : null,
    usage: t.usage ?? null,
  };
}

function contextView(c: import('./stage-types').StageContext | null, s: StageStepData, ref: (...p: (string | number)[]) => { seq: number; path: string }): StageContextView {
  const at = (...p: (string | number)[]) => ref('context', ...p);
  const msgs = (list: Message[] | undefined, key: string) =>
    list ? list.map((m, i) => messageView({ ...m, id: `${s.position}/${key}/${i}`, seq: null }, (...p) => at(key, i, ...p))) : null;
  return {
    runId: c?.runId ?? '',
    phase: s.phase,
    round: s.round,
    rung: s.rung,
    stage: s.stage,
    with: slot(s.definition.with, at('with')),
    messages: msgs(c?.messages, 'messages'),
    turn: c?.turn ? turnView(c.turn, (...p) => at('turn', ...p)) : null,
    requests: c?.requests ? c.requests.map((q, i) => ({ id: q.id, op: q.op, args: slot(q.args, at('requests', i, 'args')) })) : null,
    outcomes: c?.outcomes ? c.outcomes.map((o, i) => ({ callId: o.callId, op: o.op, status: o.status, content: slot(o.content, at('outcomes', i, 'content')) })) : null,
    transcript: msgs(c?.transcript, 'transcript'),
    artifact: c?.artifact ? slot(c.artifact, at('artifact')) : null,
    evidence: c?.evidence ? c.evidence.map((x, i) => slot(x, at('evidence', i))) : null,
  };
}
