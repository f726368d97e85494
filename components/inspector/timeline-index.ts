/**
 * The run page's reading of a timeline view (the kernel built it; nothing here
 * interprets events): every item the page can select — stage traces, processor
 * steps, model turns, tool calls — by id, in run order, with what the detail
 * panel and the links need; moving to the next failure; the failed-only
 * filter; the studio link to a declaration; the fork points the view names.
 */
import { FORK_POINT_FINISH, FORK_POINT_INPUT, type RunTimelineView } from '@/lib/views';
import { partOf, plural } from '@/lib/kernel/plural';
import { notReportedText } from '@/lib/kernel/turn-usage';

type Visit = RunTimelineView['visits'][number];
type Round = Visit['rounds'][number];
type Step = NonNullable<Visit['pre']>['steps'][number];
type Trace = Round['lanes'][number]['traces'][number];
type Turn = NonNullable<Round['model']>;
type Tool = Round['tools'][number];

export type TimelineEntry =
  | { kind: 'trace'; id: string; seq: number | null; status: string; label: string; line: number | null; trace: Trace; visit: string; round: string }
  | { kind: 'step'; id: string; seq: number; status: string; label: string; line: number | null; step: Step; visit: string | null; round: null; chain: string }
  | { kind: 'model'; id: string; seq: number; status: string; label: string; line: null; turn: Turn; visit: string; round: string }
  | { kind: 'tool'; id: string; seq: number | null; status: string; label: string; line: null; tool: Tool; visit: string; round: string };

/** what the page can select, by id, in run order */
export function indexTimeline(t: RunTimelineView): Map<string, TimelineEntry> {
  const index = new Map<string, TimelineEntry>();
  const steps = (chain: Visit['pre'], visit: string | null) => {
    for (const step of chain?.steps ?? []) {
      index.set(step.id, { kind: 'step', id: step.id, seq: step.seq, status: step.status, label: step.label, line: step.line, step, visit, round: null, chain: chain!.id });
    }
  };
  for (const v of t.visits) {
    steps(v.pre, v.id);
    for (const r of v.rounds) {
      const base = { visit: v.id, round: r.id };
      const lane = (rung: string) => r.lanes.find((l) => l.rung === rung)?.traces ?? [];
      const traces = (rung: string) => lane(rung).forEach((trace) => index.set(trace.id, traceEntry(trace, base)));
      // in the order they happen: the prompt is assembled, the model answers, its calls are gated, run, then read
      traces('prompt-assembly');
      if (r.model) index.set(r.model.id, { kind: 'model', id: r.model.id, seq: r.model.seq, status: r.model.finished ? 'finished' : 'ok', label: `${r.model.id} model turn`, line: null, turn: r.model, ...base });
      traces('post-model');
      traces('pre-tool');
      for (const tool of r.tools) index.set(tool.id, { kind: 'tool', id: tool.id, seq: tool.seq, status: tool.status, label: `${tool.id} ${tool.op} ${tool.status}`, line: null, tool, ...base });
      traces('post-tool');
      traces('finalize');
    }
  }
  steps(t.post, null);
  return index;
}

const traceEntry = (trace: Trace, at: { visit: string; round: string }): TimelineEntry => ({
  kind: 'trace',
  id: trace.id,
  seq: trace.seq,
  status: trace.status,
  label: trace.label,
  line: trace.line,
  trace,
  ...at,
});

/** a stage as the timeline names it: its capability and stage, or the one name where they are the same (`path_guard`, not `path_guard/path_guard`) */
export const stageName = (t: { capability: string; stage: string }): string => (t.capability === t.stage ? t.stage : `${t.capability}/${t.stage}`);

/** the Details title of an item: its label, with a stage named once (stageName) */
export const itemTitle = (e: TimelineEntry): string => (e.kind === 'trace' ? `${e.trace.rung} ${stageName(e.trace)} ${e.status}` : e.label);

/**
 * The Details title split for drawing: its name, and its status when the title ends with it (a stage,
 * a step, a tool call), so the status badge takes that word's place instead of saying it a second time
 * ("ok pre-tool path_guard ok"); a model turn's title does not say its status: the badge goes first.
 */
export function titleParts(e: TimelineEntry): { name: string; isStatusLast: boolean } {
  const title = itemTitle(e);
  const end = ` ${e.status}`;
  return title.endsWith(end) ? { name: title.slice(0, -end.length), isStatusLast: true } : { name: title, isStatusLast: false };
}

/** the visit key an item id starts with (`work#12` for `work#12/r2/model`; `__post__` for a postprocessor step) */
export const visitKeyOf = (id: string): string => id.split('/', 1)[0];

/** the index in the outline of the visit that holds an item; -1: none does (the postprocessor, `run`) */
export function visitIndexOf(outline: RunTimelineView['outline'], id: string): number {
  const key = visitKeyOf(id);
  return outline.findIndex((v) => v.id === key);
}

/**
 * The event the scrubber shows for an item: the one that recorded it, or for a tool call a pre-tool
 * stage denied (never run, so never recorded) the stage's event that denied it; null for what no event
 * recorded (a stage not reached).
 */
export function eventOf(e: TimelineEntry | undefined): number | null {
  if (!e) return null;
  if (e.seq !== null) return e.seq;
  return e.kind === 'tool' ? (e.tool.deniedBy?.seq ?? null) : null;
}

/** the failure after `current` in run order, wrapping round to the first; the first when nothing (or no failure) is selected */
export function nextFailure(failures: readonly string[], current: string | null): string | null {
  if (failures.length === 0) return null;
  const at = current === null ? -1 : failures.indexOf(current);
  return failures[(at + 1) % failures.length];
}

/** the ids the failed-only filter keeps: the failures, and the rounds, visits and chains that hold one */
export function failureScope(index: Map<string, TimelineEntry>, failures: readonly string[]): Set<string> {
  const keep = new Set<string>();
  for (const id of failures) {
    keep.add(id);
    const e = index.get(id);
    if (!e) continue;
    if (e.visit) keep.add(e.visit);
    if (e.round) keep.add(e.round);
    if (e.kind === 'step') keep.add(e.chain);
  }
  return keep;
}

/**
 * What stays selected under the failed-only filter (`scope`; null: none): the selection when the
 * filter keeps it (or it is `run`, the report's), else what the page opened on when the filter keeps
 * that, else the first failure — never an item the filter hides (Details went on showing an ok stage).
 */
export function selectedInScope(selected: string | null, scope: ReadonlySet<string> | null, opened: string | null, failures: readonly string[]): string | null {
  if (!scope || selected === null || selected === 'run' || scope.has(selected)) return selected;
  if (opened !== null && (opened === 'run' || scope.has(opened))) return opened;
  return failures[0] ?? null;
}

/** the studio at the version the run ran, at a declaration line (and file, for a code step's error) */
export function studioHref(skill: string, version: string | null, at: { line?: number | null; file?: string | null } = {}): string {
  const q = new URLSearchParams();
  if (version) q.set('version', version);
  if (at.file) q.set('file', at.file);
  if (typeof at.line === 'number') q.set('line', String(at.line));
  const s = q.toString();
  return `/skills/${encodeURIComponent(skill)}${s ? `?${s}` : ''}`;
}

/** fork points the timeline names: input, each phase, the finish artifact, each model turn, each step and what it was given */
export function timelinePositions(t: RunTimelineView): string[] {
  const out = new Set<string>([FORK_POINT_INPUT]);
  const chain = (c: Visit['pre']) => c?.steps.forEach((s) => (out.add(s.position), out.add(`${s.position}/input`)));
  for (const v of t.visits) {
    out.add(v.phase);
    chain(v.pre);
    for (const r of v.rounds) if (r.model) out.add(r.model.id);
  }
  // a long run's timeline holds a window of its visits: the outline names every phase
  for (const o of t.outline) out.add(o.phase);
  if (t.post || t.status === 'completed') out.add(FORK_POINT_FINISH);
  chain(t.post);
  return [...out];
}

/** where the detail panel's `Fork from here` opens: a failed step from what it was given (its result is the error) */
export function forkPointOf(e: TimelineEntry): string | null {
  if (e.kind === 'trace' && e.seq === null) return null;
  if (e.kind === 'step' && e.step.status === 'failed') return `${e.id}/input`;
  return e.id;
}

type NotReported = { turns: number; of: number; reportedCost: number | null };
type UsageFigures = { inputTokens: number; outputTokens: number; latencyMs: number; cost: number | null; reused?: number; tokensNotReported?: NotReported };

/**
 * The figures of a usage, in order: tokens (or `noTokens`' words when none were used and it is
 * given), latency (as `latency` says it; left out where reused turns alone took no time), cost, and
 * how many of the turns counted were answered from a recording (run and paid for by the run that
 * recorded them). Turns whose endpoint did not report their tokens are said so, never as none used:
 * the reported turns' tokens, then how many did not report, and the cost as unknown (at least what
 * the reported turns cost).
 */
function usageParts(u: UsageFigures, currency: string | null, latency: (ms: number) => string, noTokens?: string): string[] {
  const reused = u.reused ?? 0;
  const hasTokens = u.inputTokens > 0 || u.outputTokens > 0;
  const missing = u.tokensNotReported;
  const parts: string[] = [];
  if (missing) parts.push(...notReportedParts(u, missing));
  else if (hasTokens) parts.push(tokensText(u));
  else if (noTokens) parts.push(noTokens);
  if (!(reused && !u.latencyMs)) parts.push(latency(u.latencyMs));
  if (missing && currency) parts.push(missing.turns < missing.of && missing.reportedCost !== null ? `at least ${costText(missing.reportedCost, currency)}` : 'cost unknown');
  else if (u.cost !== null && currency) parts.push(costText(u.cost, currency));
  if (reused) parts.push(`incl. ${plural(reused, 'turn')} reused from the recording`);
  return parts;
}

/** `1,204 → 88 tok from 1 reported turn`, `tokens not reported by the model endpoint for 2 of 3 turns` */
function notReportedParts(u: UsageFigures, missing: NotReported): string[] {
  const reported = missing.of - missing.turns;
  return [...(reported > 0 ? [`${tokensText(u)} from ${plural(reported, 'reported turn')}`] : []), notReportedText(missing.turns, missing.of)];
}

/**
 * How many of `count` were answered from a recording, as a count card of the run report says it
 * after its count — `all 2 reused from the recording` (null: none were). Said as the usage says it,
 * and as the report's summary does (`7 model rounds (all 7 reused from the recording)`: partOf).
 */
export function reusedNote(count: number, reused: number): string | null {
  const n = Math.min(reused, count);
  return n ? `${partOf(n, count)} reused from the recording` : null;
}

/**
 * A count card of the run report (Model rounds, Tool calls, Stages, Processor steps) in its three
 * parts: the count with how many of it were answered from a recording (a fork's or a replay's steps
 * before its point — not called or run again, so a bare count would claim more than was done), the
 * statuses (`dim`: shown dimmed) and what closes the parenthesis:
 * `2 (all 2 reused from the recording; 2 ok)`; a run that reused nothing: `2 (2 ok)`, or `2`.
 */
export function countParts(count: number, reused: number, statuses: string): { text: string; dim: string; close: string } {
  const note = reusedNote(count, reused);
  if (note) return { text: `${count} (${note}`, dim: statuses ? `; ${statuses}` : '', close: ')' };
  return { text: String(count), dim: statuses ? ` (${statuses})` : '', close: '' };
}

type ReusedCounts = { model: number; tool: number; stage: number; processor: number };

/**
 * What the run report's count cards say was reused, each from one source: the report's own counts
 * (`reused`, as its summary says them). A report recorded before it counted them has none; there
 * the model turns reused come from the run's usage (the timeline counts those itself), and the
 * tool calls, stages and processor steps say their statuses alone, as they did then.
 */
export function reusedCounts(report: { reused?: ReusedCounts }, usage: { reused?: number }): ReusedCounts {
  return report.reused ?? { model: usage.reused ?? 0, tool: 0, stage: 0, processor: 0 };
}

/** countParts as one line of text */
export function countText(count: number, reused: number, statuses = ''): string {
  const p = countParts(count, reused, statuses);
  return p.text + p.dim + p.close;
}

/** tokens, latency and cost as the lanes show them: `1,204 → 88 tok · 1.2 s · €0.0031` */
export function usageText(u: UsageFigures, currency: string | null): string {
  return usageParts(u, currency, latencyText).join(' · ');
}

/**
 * The run report's Usage: usageText, led by the plain words when the run used no model tokens (code
 * steps only, or its turns answered from a recording) — a bare latency there read as a broken figure.
 * A run whose endpoint did not report some turns' tokens says that instead, with the reported part.
 */
export function runUsageText(u: UsageFigures, currency: string | null): string {
  return usageParts(u, currency, latencyText, 'no model tokens used').join(' · ');
}

/**
 * The timeline header's usage, for the whole run: its figures said with what they are — the tokens
 * (or that the run used none), and the model's latency summed over its turns — where a bare "1.2 s"
 * after the visit count read as nothing in particular.
 */
export function totalUsageText(u: UsageFigures, currency: string | null): string {
  return usageParts(u, currency, (ms) => `${latencyText(ms)} model latency in total`, 'no model tokens used').join(' · ');
}

/** between a figure and its unit: a no-break space, so a narrow lane never leaves "ms" on a line alone */
const NBSP = '\u00a0';

/** a turn's tokens, in → out */
export function tokensText(u: { inputTokens: number; outputTokens: number }): string {
  return `${u.inputTokens.toLocaleString('en')} → ${u.outputTokens.toLocaleString('en')}${NBSP}tok`;
}

type FromRecording = Step['fromRecording'];

/**
 * A card's note on where its record came from, in a replay or a fork: the steps answered from the
 * parent's recording were not run here; the one at the fork point carries the value it was given.
 */
export function recordingNote(from: FromRecording): string {
  if (!from) return '';
  return from.edited ? ' · edited at the fork point' : ' · reused from the recording';
}

/** Details' Result of an item a recording answered: not run in this run, and from where */
export function recordingResult(from: NonNullable<FromRecording>): string {
  const where = from.runId ? `run ${from.runId}, event ${from.seq}` : `event ${from.seq}`;
  return from.edited ? `not run: the fork's edited value, in place of the one recorded (${where})` : `not run here: reused from the recording (${where})`;
}

export function latencyText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}${NBSP}ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}${NBSP}s`;
}

export function costText(cost: number, currency: string): string {
  const digits = cost === 0 ? 2 : Math.min(6, Math.max(2, 1 - Math.floor(Math.log10(cost))));
  return `${cost.toFixed(digits)}${NBSP}${currency}`;
}

/** the DOM id of a timeline item (ids hold `/`), one to one */
export function itemDomId(id: string): string {
  return `ti-${id.replace(/[^A-Za-z0-9-]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)}`;
}

/** an iterate's nested steps as its card says them: how many, and those that did not go ok (none: all ok) */
export function nestedText(n: { steps: number; failed: number; skipped: number; empty: number }): string {
  const off = (['failed', 'skipped', 'empty'] as const).filter((k) => n[k] > 0).map((k) => `${n[k]} ${k}`);
  const steps = plural(n.steps, 'nested step').replace(' ', NBSP); // the count kept with its words
  return off.length ? `${steps} (${off.join(', ')})` : n.steps ? `${steps}, all ok` : 'no nested steps';
}
