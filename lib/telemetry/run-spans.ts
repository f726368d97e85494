/**
 * A run as a tree of spans, computed from what it recorded — its events and
 * stage traces — and nothing else: a pure function of the log, so a run
 * resumed after a crash, driven by three workers in turn or replayed later
 * exports the same shape, and ids are derived from the run (a trace exported
 * twice lands on the same spans).
 *
 * The tree, with GenAI semantic-convention attributes (`gen_ai.*`) where a
 * span is a GenAI operation:
 *
 *   invoke_agent <skill>                the run (root): agent, model, status
 *   ├── phase <name>                    each phase visit
 *   │   ├── step <type>                 its preprocessor steps
 *   │   └── chat <model>                each model round: usage, finish reason
 *   │       ├── stage <name>            the stage traces of the round, on every rung
 *   │       └── execute_tool <op>       its tool calls
 *   └── postprocessor
 *       └── step <type>                 processor steps (iterate's inner steps under theirs)
 *
 * A failed or refused stage, a failed step or tool call, a failed phase and a
 * failed run carry an error status whose message says why — a refused stage
 * names the grants it lacked. Span events mark a queued run's admission and
 * resumes (with the worker that took over), the finish artifact's persistence
 * and overridden facts.
 *
 * Owns: the mapping. Does not: export anything (otlp-export.ts), or load
 * OpenTelemetry (times are epoch milliseconds, statuses plain strings).
 */
import { createHash } from 'node:crypto';
import type { Json, JsonObject } from '../kernel/json';
import type { RunEvent, RunRecord, StageTrace } from '../kernel/ports';
import { EVENT, TERMINAL_EVENTS } from '../kernel/events';
import { POST_PHASE } from '../kernel/plan';
import { relativeToBundle } from '../kernel/error-info';
import { bundleRootsOf } from '../kernel/provenance';

export type AttributeValue = string | number | boolean | string[];

export type SpanData = {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: 'internal' | 'client';
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  status: { code: 'unset' | 'ok' | 'error'; message?: string };
  events: { name: string; atMs: number; attributes: Record<string, AttributeValue> }[];
  /** a span of another trace this one follows from (a child run's root → its parent run's root) */
  links: { traceId: string; spanId: string; attributes: Record<string, AttributeValue> }[];
};

const hex = (s: string, chars: number) => createHash('sha256').update(s).digest('hex').slice(0, chars);
export const traceIdOf = (runId: string) => hex(`stagecraft-trace:${runId}`, 32);
export const rootSpanIdOf = (runId: string) => hex(`${runId}:run`, 16);

/** `openai:gpt-4o` → provider openai, model gpt-4o; `scripted:/x/model.yaml` → scripted, model.yaml */
export function modelAttributes(spec: string): Record<string, string> {
  const i = spec.indexOf(':');
  const provider = i < 0 ? spec : spec.slice(0, i);
  const rest = i < 0 ? spec : spec.slice(i + 1);
  const model = provider === 'scripted' ? (rest.split(/[\\/]/).pop() ?? rest) : rest;
  return { 'gen_ai.provider.name': provider, 'gen_ai.request.model': model };
}

const str = (v: Json | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const messageOf = (v: Json | undefined): string | undefined => {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && !Array.isArray(v)) return str((v as JsonObject).message) ?? messageOf((v as JsonObject).error);
  return undefined;
};

export function runSpans(run: RunRecord, events: readonly RunEvent[], traces: readonly StageTrace[]): SpanData[] {
  if (events.length === 0) return [];
  const traceId = traceIdOf(run.id);
  const spanId = (key: string) => hex(`${run.id}:${key}`, 16);
  const spans: SpanData[] = [];
  const make = (key: string, parent: SpanData | null, name: string, startMs: number, endMs: number, attributes: SpanData['attributes'] = {}): SpanData => {
    const s: SpanData = { traceId, spanId: spanId(key), parentSpanId: parent?.spanId ?? null, name, kind: 'internal', startMs, endMs, attributes, status: { code: 'unset' }, events: [], links: [] };
    spans.push(s);
    return s;
  };
  const stretch = (s: SpanData, from: number, to: number) => {
    s.startMs = Math.min(s.startMs, from);
    s.endMs = Math.max(s.endMs, to);
  };
  // a status message names files of the bundle as the run's page does: relative to the copy the run executed from
  const roots = bundleRootsOf(events);
  const fail = (s: SpanData, message: string | undefined) => {
    s.status = { code: 'error', ...(message ? { message: relativeToBundle(message, roots) } : {}) };
  };

  const first = events[0];
  const last = events[events.length - 1];
  const end = events.find((e) => TERMINAL_EVENTS.has(e.type));
  const root = make('run', null, `invoke_agent ${run.skillName}`, first.at, (end ?? last).at, {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': run.skillName,
    'gen_ai.conversation.id': run.id,
    ...modelAttributes(run.model),
    'stagecraft.run.id': run.id,
    'stagecraft.run.status': run.status,
    'stagecraft.skill.hash': run.skillHash,
  });
  const kind = run.kind;
  if (kind !== 'run') root.attributes['stagecraft.run.kind'] = kind;
  if (run.parentRunId) {
    // a run_skill child follows from its parent run; a replay or a fork from the run it replays or forks
    root.attributes['stagecraft.run.parent_id'] = run.parentRunId;
    const link = kind === 'replay' ? 'replay_of' : kind === 'fork' ? 'fork_of' : 'parent_run';
    root.links.push({ traceId: traceIdOf(run.parentRunId), spanId: rootSpanIdOf(run.parentRunId), attributes: { 'stagecraft.link': link } });
  }

  const tracesBySeq = new Map<number, StageTrace[]>();
  for (const t of traces) tracesBySeq.set(t.seq, [...(tracesBySeq.get(t.seq) ?? []), t]);
  const phases = new Map<string, SpanData>();
  const rounds = new Map<string, SpanData>();
  const stepsByPosition = new Map<string, SpanData>();
  let post: SpanData | null = null;
  let currentVisit: SpanData | null = null;

  const visitOf = (phase: string, visit: number) => (visit === 1 ? phase : `${phase}#${visit}`);
  const phaseSpan = (visitKey: string, at: number): SpanData => {
    let s = phases.get(visitKey);
    if (!s) {
      const [name, n] = visitKey.split('#');
      s = make(`phase:${visitKey}`, root, `phase ${name}`, at, at, { 'stagecraft.phase.name': name, 'stagecraft.phase.visit': Number(n ?? 1) });
      phases.set(visitKey, s);
    }
    return s;
  };

  for (const e of events) {
    const d = e.data;
    switch (e.type) {
      case EVENT.runStarted:
      case EVENT.runAdmitted:
      case EVENT.runResumed: {
        const driver = (d.driver ?? {}) as JsonObject;
        const who: Record<string, AttributeValue> = {};
        for (const k of ['kind', 'worker', 'host'] as const) if (typeof driver[k] === 'string') who[`stagecraft.driver.${k}`] = driver[k] as string;
        if (typeof driver.pid === 'number') who['stagecraft.driver.pid'] = driver.pid;
        // the root names the first driver (a queued run's is the one that admitted it)
        if (root.attributes['stagecraft.driver.kind'] === undefined) Object.assign(root.attributes, who);
        if (e.type === EVENT.runAdmitted && typeof d.waitedMs === 'number') root.attributes['stagecraft.run.queued_ms'] = d.waitedMs;
        if (e.type !== EVENT.runStarted) root.events.push({ name: e.type, atMs: e.at, attributes: { 'stagecraft.seq': e.seq, ...who } });
        break;
      }
      case EVENT.phaseStarted:
        currentVisit = phaseSpan(visitOf(String(d.phase), Number(d.visit ?? 1)), e.at);
        break;
      case EVENT.phaseCompleted: {
        const s = phaseSpan(visitOf(String(d.phase), Number(d.visit ?? 1)), e.at);
        stretch(s, e.at, e.at);
        if (typeof d.next === 'string') s.attributes['stagecraft.phase.next'] = d.next;
        break;
      }
      case EVENT.artifactPersisted:
      case EVENT.factOverridden:
        (currentVisit ?? root).events.push({ name: e.type, atMs: e.at, attributes: { 'stagecraft.seq': e.seq, ...(typeof d.path === 'string' ? { 'stagecraft.path': d.path } : {}), ...(typeof d.field === 'string' ? { 'stagecraft.field': d.field } : {}) } });
        break;
      case EVENT.stepCompleted:
        stepSpan(e);
        break;
      default:
        if (TERMINAL_EVENTS.has(e.type)) {
          const err = d.error as JsonObject | null;
          if (e.type === EVENT.runCompleted) root.status = { code: 'ok' };
          else fail(root, messageOf(err as Json) ?? e.type);
          const report = d.report as JsonObject | null;
          if (report && typeof report.outcome === 'string') root.attributes['stagecraft.report.outcome'] = report.outcome;
          if (report && typeof report.block_reason === 'string') root.attributes['stagecraft.report.block_reason'] = report.block_reason;
          // the phase the run failed in fails with it
          const where = err && typeof err.phase === 'string' ? err.phase : null;
          if (err && where && where !== POST_PHASE) {
            const visits = [...phases.entries()].filter(([k]) => k.split('#')[0] === where);
            const s = visits[visits.length - 1]?.[1];
            if (s) fail(s, messageOf(err as Json));
          } else if (err && where === POST_PHASE && post) fail(post, messageOf(err as Json));
        }
    }
  }

  function stepSpan(e: RunEvent): void {
    const d = e.data;
    const position = String(d.position ?? '');
    const kind = String(d.kind);
    const status = String(d.status ?? 'ok');
    const startMs = e.at - Number(d.durationMs ?? 0);
    const [visitKey, second] = position.split('/');
    const common = { 'stagecraft.step.position': position, 'stagecraft.step.status': status, 'stagecraft.seq': e.seq };
    let parent: SpanData;
    if (visitKey === POST_PHASE) {
      post ??= make('post', root, 'postprocessor', startMs, e.at, { 'stagecraft.phase.name': POST_PHASE });
      parent = post;
    } else {
      parent = phaseSpan(visitKey, startMs);
      const m = /^r(\d+)$/.exec(second ?? '');
      if (m) {
        const key = `${visitKey}/r${m[1]}`;
        let round = rounds.get(key);
        if (!round) {
          round = make(`round:${key}`, parent, 'chat', startMs, e.at, { 'gen_ai.operation.name': 'chat', 'stagecraft.round': Number(m[1]), ...modelAttributes(run.model) });
          round.kind = 'client';
          round.name = `chat ${round.attributes['gen_ai.request.model']}`;
          rounds.set(key, round);
        }
        stretch(parent, startMs, e.at);
        parent = round;
      }
    }
    stretch(parent, startMs, e.at);
    if (parent !== root) stretch(root, startMs, e.at);
    if (kind === 'model') {
      // the round's own span is the model call's: its GenAI attributes come from the recorded turn
      const out = (d.output ?? {}) as JsonObject;
      const usage = (out.usage ?? {}) as JsonObject;
      const input = usage.inputTokens ?? usage.input_tokens;
      const output = usage.outputTokens ?? usage.output_tokens;
      if (typeof input === 'number') parent.attributes['gen_ai.usage.input_tokens'] = input;
      if (typeof output === 'number') parent.attributes['gen_ai.usage.output_tokens'] = output;
      const calls = Array.isArray(out.toolCalls) ? out.toolCalls.length : 0;
      parent.attributes['gen_ai.response.finish_reasons'] = [calls > 0 ? 'tool_calls' : 'stop'];
      if (status !== 'ok') fail(parent, messageOf(out.error));
      return;
    }
    let s: SpanData;
    if (kind === 'stage') {
      const t = (tracesBySeq.get(e.seq) ?? [])[0];
      s = make(`seq:${e.seq}`, parent, `stage ${String(d.stage)}`, t?.startedAt ?? startMs, t?.endedAt ?? e.at, {
        'stagecraft.stage.name': String(d.stage),
        'stagecraft.stage.capability': String(d.capability ?? d.stage),
        'stagecraft.stage.rung': String(d.rung),
        'stagecraft.stage.status': status,
        ...common,
      });
      if (t) {
        s.attributes['stagecraft.stage.effects.asked'] = t.effects.asked;
        s.attributes['stagecraft.stage.effects.granted'] = t.effects.granted;
        if (t.effects.missing.length) s.attributes['stagecraft.stage.effects.missing'] = t.effects.missing;
      }
      if (status === 'refused') {
        const missing = t?.effects.missing ?? [];
        fail(s, `refused: the stage needs ${missing.length ? missing.join(', ') : 'an effect'} that the skill does not grant (permissions.effects)`);
      } else if (status === 'failed') fail(s, t?.error?.message ?? messageOf((d.output as JsonObject | null)?.error));
    } else if (kind === 'tool') {
      s = make(`seq:${e.seq}`, parent, `execute_tool ${String(d.op)}`, startMs, e.at, {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': String(d.op),
        'gen_ai.tool.type': 'function',
        ...(typeof d.callId === 'string' ? { 'gen_ai.tool.call.id': d.callId } : {}),
        ...common,
      });
      if (status !== 'ok') fail(s, messageOf(d.output));
    } else {
      s = make(`seq:${e.seq}`, parent, `step ${String(d.type ?? kind)}`, startMs, e.at, {
        'stagecraft.step.type': String(d.type ?? kind),
        ...(typeof d.index === 'number' ? { 'stagecraft.step.index': d.index } : {}),
        ...common,
      });
      if (status === 'failed') fail(s, messageOf(d.output));
    }
    stepsByPosition.set(position, s);
  }

  // a step inside another (an iterate's inner steps, a run_op's op) is recorded before the outer
  // one: parent it now that every step is known — under the nearest step its position lies in
  for (const s of spans) {
    const position = s.attributes['stagecraft.step.position'];
    if (typeof position !== 'string') continue;
    const parts = position.split('/');
    for (let n = parts.length - 1; n >= 2; n--) {
      const outer = stepsByPosition.get(parts.slice(0, n).join('/'));
      if (outer && outer !== s) {
        s.parentSpanId = outer.spanId;
        stretch(outer, s.startMs, s.endMs);
        break;
      }
    }
  }
  return spans;
}
