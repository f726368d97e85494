/**
 * Comparing two runs' logs, step by step: what a replay reports (the recorded
 * run against its replay) and what `compare` shows for any two runs.
 *
 * Steps are aligned by position (`draft/r2/model`, `__post__/3`), in the
 * order each run recorded them; a step is its last record at that position
 * (a world read re-executed on resume is recorded again). Each aligned row is
 * `same`, or changed in `status` or `output`, or `added` (only B has it),
 * `removed` (only A has it), `not_reached` (B stopped before it: a replay
 * that could not go on). The divergences are the changed, added and removed
 * rows in that order — the first divergence first — with a structural diff
 * (jsondiffpatch delta, A → B), then the stop of a replay (the step that
 * could not be answered from the recording), then the outcome (status and
 * caller artifact) when it differs. A step inside one the other run answered
 * whole from a recording (an iterate's nested steps) is not a row: that run
 * never ran it apart, and the answer holds it; each side's step count is of
 * the steps compared, and says apart how many it left out so.
 *
 * Outputs are compared as canonical JSON, with error stacks left out (where a
 * process printed its frames is not what a step did) and the paths of the
 * bundle folder each run executed from made relative (another version's copy,
 * or the same run imported on another installation, raises from another folder).
 *
 * Owns: alignment, equality, the diff. Does not: read the store, or decide
 * what a run executes (recording.ts).
 */
import { create as createDiffer, type DiffContext } from 'jsondiffpatch';
import { EVENT, TERMINAL_EVENTS } from './events';
import type { Json, JsonObject } from './json';
import { isJsonObject } from './json';
import type { RunEvent } from './ports';
import { canonicalJson } from './memo';
import { errorLineOf, relativeErrorValue, relativeToBundle } from './error-info';
import { bundleRootsOf } from './provenance';
import { isUsageUnreported } from './turn-usage';

export type StepSide = {
  seq: number;
  status: string;
  output: Json;
  durationMs: number;
  /** model turns: what the provider counted */
  tokens: { input: number; output: number } | null;
  /** a model turn whose endpoint did not say what it used (turn-usage.ts): its tokens are unknown, not none */
  tokensNotReported?: true;
  /** answered from another run's recording, not executed */
  recorded: boolean;
};

export type RowChange = 'same' | 'status' | 'output' | 'added' | 'removed' | 'not_reached';
export type CompareRow = { position: string; kind: string; change: RowChange; a: StepSide | null; b: StepSide | null };

export type DivergenceChange = 'status' | 'output' | 'added' | 'removed' | 'model_request_changed' | 'model_turn_unrecorded' | 'tool_call_unrecorded' | 'outcome';

/** `said`: what the step did where its value says nothing of it (a validate that passed records null) */
export type DivergenceSide = { seq: number | null; status: string; value: Json; said?: string };

/**
 * What a step did, in words, where its recorded value would read as "it produced nothing": a validate
 * that passed records no output (null), which beside the other run's error looked like an empty step.
 * The one source of these words for compare's page and `stagecraft compare`.
 */
export function noOutputWords(kind: string, type: string | null, status: string, output: Json): string | null {
  return kind === 'processor' && type === 'validate' && status === 'ok' && output === null ? 'passed — validate records no output' : null;
}

export type Divergence = {
  position: string;
  kind: string;
  change: DivergenceChange;
  a: DivergenceSide | null;
  b: DivergenceSide | null;
  /** jsondiffpatch delta from A's value to B's (null when one side is missing or nothing differs in value) */
  diff: Json | null;
  message: string;
};

export type OutcomeSide = {
  status: string;
  output: Json;
  error: JsonObject | null;
  /** the steps compared: the rows this run has a side in */
  steps: number;
  /** steps of its log not compared (nor in `steps`): inside a step the other run answered whole from a recording */
  insideAnswered: number;
  /** those steps by the step of the other run that holds them: its position, how many, and which of them this run edited (a fork point) */
  insideParents: InsideParent[];
  /** the tokens of the model turns that reported them */
  tokens: { input: number; output: number };
  /** only when some model turn's endpoint did not report its tokens: how many, of how many turns */
  tokensNotReported?: { turns: number; of: number };
  /** from the run's first event to its last */
  durationMs: number;
};

export type Comparison = {
  rows: CompareRow[];
  divergences: Divergence[];
  a: OutcomeSide;
  b: OutcomeSide;
  /** B is a replay that stopped: where and why */
  stoppedAt: { position: string; reason: string; message: string } | null;
};

type Step = StepSide & { position: string; kind: string; first: number; edited: boolean; type: string | null };

/** a step the other run answered whole, and this run's steps inside it (not compared) */
export type InsideParent = { position: string; steps: number; edited: string[] };

const differ = createDiffer({ arrays: { detectMove: false } });

/**
 * pairs of elements one diff may compare while aligning arrays (jsondiffpatch's longest common
 * subsequence, and its look for an element of one array at another place in the other, both cost the
 * product of the two lengths, in time and in memory for the first): two arrays of 20,000 numbers that
 * differ took 19 s and 2 GB, and a step's output may hold millions (16 MB). Past it, the arrays left
 * are compared position by position, each pair in depth: the same delta format, in linear time.
 */
export const MAX_ALIGNED_PAIRS = 4_000_000;
let alignedPairs = 0;

const boundedArrays = Object.assign(function boundedArraysDiffFilter(context: DiffContext) {
  if (!context.leftIsArray || !Array.isArray(context.right)) return;
  const left = context.left as unknown[];
  const right = context.right as unknown[];
  alignedPairs += left.length * right.length;
  if (alignedPairs <= MAX_ALIGNED_PAIRS) return; // jsondiffpatch's own alignment
  // the package exports DiffContext as a type only: a child is made by the class of the context at hand
  const Child = context.constructor as new (left: unknown, right: unknown) => DiffContext;
  const common = Math.min(left.length, right.length);
  for (let i = 0; i < common; i++) context.push(new Child(left[i], right[i]), i);
  const delta: Record<string, unknown> = { _t: 'a' };
  for (let i = common; i < right.length; i++) delta[i] = [right[i]];
  for (let i = common; i < left.length; i++) delta[`_${i}`] = [left[i], 0, 0];
  context.setResult(left.length === right.length ? undefined : (delta as never)).exit();
}, { filterName: 'boundedArrays' });
differ.processor.pipes.diff.before('arrays', boundedArrays);

/**
 * jsondiffpatch's own collectChildren, but each child's delta made an own key of the delta: it assigns
 * `result[name] = …`, and for a `__proto__` key (JSON.parse makes one) that sets the delta's prototype,
 * so a change under it came out as an empty delta.
 */
const collectChildren = Object.assign(
  function collectChildrenAsOwnKeys(context: DiffContext) {
    if (!context.children) return;
    let result = context.result as Record<string, unknown> | undefined;
    for (const child of context.children) {
      if (child?.result === undefined) continue;
      result ??= {};
      Object.defineProperty(result, String(child.childName), { value: child.result, enumerable: true, writable: true, configurable: true });
    }
    if (result && context.leftIsArray) result._t = 'a';
    context.setResult(result as never).exit();
  },
  { filterName: 'collectChildren' },
);
differ.processor.pipes.diff.replace('collectChildren', collectChildren);

/** A structural diff of two values (jsondiffpatch delta), null when they are equal. */
export function diffValues(a: Json, b: Json): Json | null {
  alignedPairs = 0;
  return (differ.diff(a, b) ?? null) as Json | null;
}

/** every step of a log at its last record, in the order its position was first recorded */
export function stepsOf(events: readonly RunEvent[]): Step[] {
  const byPosition = new Map<string, Step>();
  for (const e of events) {
    if (e.type !== EVENT.stepCompleted) continue;
    const d = e.data;
    const position = String(d.position);
    const prev = byPosition.get(position);
    byPosition.set(position, {
      position,
      kind: String(d.kind),
      type: typeof d.type === 'string' ? d.type : null,
      seq: e.seq,
      first: prev?.first ?? e.seq,
      status: String(d.status),
      output: (d.output ?? null) as Json,
      durationMs: typeof d.durationMs === 'number' ? d.durationMs : 0,
      tokens: tokensOf(String(d.kind), d.output as Json),
      recorded: isJsonObject(d.recorded),
      edited: d.edited === true,
      ...(d.kind === 'model' && isUsageUnreported(d, isJsonObject(d.output) ? d.output : null) ? { tokensNotReported: true as const } : {}),
    });
  }
  return [...byPosition.values()].sort((x, y) => x.first - y.first);
}

function tokensOf(kind: string, output: Json): StepSide['tokens'] {
  if (kind !== 'model' || !isJsonObject(output) || !isJsonObject(output.usage)) return null;
  const u = output.usage;
  return { input: Number(u.inputTokens ?? 0), output: Number(u.outputTokens ?? 0) };
}

/** the value as compared: error stacks left out, and in an error the paths under `roots` relative */
function comparable(v: Json, roots: readonly string[], inError = false): Json {
  if (typeof v === 'string') return inError ? relativeToBundle(v, roots) : v;
  if (Array.isArray(v)) return v.map((x) => comparable(x, roots, inError));
  if (!isJsonObject(v)) return v;
  const isError = typeof v.message === 'string';
  // built with fromEntries, never `out[k] = …`: that sets the prototype for a `__proto__` key, which left the value compared
  return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (isError && k === 'stack' ? [] : [[k, comparable(x, roots, inError || isError)]]))) as JsonObject;
}

/** A's and B's bundle folders, for comparing their values */
type Roots = { a: readonly string[]; b: readonly string[] };

const sameValue = (a: Json, b: Json, roots: Roots) => canonicalJson(comparable(a, roots.a)) === canonicalJson(comparable(b, roots.b));

function side(s: Step): StepSide {
  return { seq: s.seq, status: s.status, output: s.output, durationMs: s.durationMs, tokens: s.tokens, recorded: s.recorded, ...(s.tokensNotReported ? { tokensNotReported: true as const } : {}) };
}

function outcomeOf(events: readonly RunEvent[], steps: readonly Step[], { compared, parents }: Outside): OutcomeSide {
  const last = events[events.length - 1];
  const end = last && TERMINAL_EVENTS.has(last.type) ? last : null;
  const status = !end ? 'running' : end.type === EVENT.runCompleted ? 'completed' : end.type === EVENT.runAborted ? 'aborted' : 'failed';
  const tokens = { input: 0, output: 0 };
  for (const s of steps) {
    if (!s.tokens) continue;
    tokens.input += s.tokens.input;
    tokens.output += s.tokens.output;
  }
  const unreported = steps.filter((s) => s.tokensNotReported).length;
  return {
    status,
    output: (end?.data.output ?? null) as Json,
    error: end && isJsonObject(end.data.error) ? end.data.error : null,
    steps: compared.length,
    insideAnswered: steps.length - compared.length,
    insideParents: parents,
    tokens,
    ...(unreported ? { tokensNotReported: { turns: unreported, of: steps.filter((s) => s.kind === 'model').length } } : {}),
    durationMs: events.length ? events[events.length - 1].at - events[0].at : 0,
  };
}

function stopOf(outcome: OutcomeSide): Comparison['stoppedAt'] {
  const e = outcome.error;
  if (outcome.status !== 'aborted' || !e || e.code !== 'replay_diverged') return null;
  return { position: String(e.position), reason: String(e.reason), message: String(e.message) };
}

/** a run's steps compared, and those left out by the step of the other run that holds them */
type Outside = { compared: readonly Step[]; parents: InsideParent[] };

/**
 * `steps` but those inside a step `other` answered whole from a recording (the steps of an iterate's
 * chain, a run_op's op, under `__post__/0` answered in a fork): that run never ran them one by one,
 * and what it was answered with holds them, so they are not steps it lacks. The steps left out are
 * counted by the answered step that holds them (the outermost), with those this run edited there.
 */
function outsideAnswered(steps: readonly Step[], other: readonly Step[]): Outside {
  const answered = new Set(other.filter((s) => s.recorded).map((s) => s.position));
  if (!answered.size) return { compared: steps, parents: [] };
  const parentOf = (position: string): string | null => {
    let found: string | null = null;
    for (let i = position.lastIndexOf('/'); i > 0; i = position.lastIndexOf('/', i - 1)) if (answered.has(position.slice(0, i))) found = position.slice(0, i);
    return found;
  };
  const parents = new Map<string, InsideParent>();
  const compared: Step[] = [];
  for (const s of steps) {
    const at = parentOf(s.position);
    if (at === null) {
      compared.push(s);
      continue;
    }
    const p = parents.get(at) ?? { position: at, steps: 0, edited: [] };
    p.steps++;
    if (s.edited) p.edited.push(s.position);
    parents.set(at, p);
  }
  return { compared, parents: [...parents.values()] };
}

export function compareLogs(aEvents: readonly RunEvent[], bEvents: readonly RunEvent[]): Comparison {
  const aAll = stepsOf(aEvents);
  const bAll = stepsOf(bEvents);
  const aOutside = outsideAnswered(aAll, bAll);
  const bOutside = outsideAnswered(bAll, aAll);
  const aSteps = aOutside.compared;
  const bSteps = bOutside.compared;
  const a = outcomeOf(aEvents, aAll, aOutside);
  const b = outcomeOf(bEvents, bAll, bOutside);
  const stoppedAt = stopOf(b);
  const roots: Roots = { a: bundleRootsOf(aEvents), b: bundleRootsOf(bEvents) };
  const types: Types = { a: new Map(aAll.map((s) => [s.position, s.type])), b: new Map(bAll.map((s) => [s.position, s.type])) };
  const aIndex = new Map(aSteps.map((s, i) => [s.position, i]));
  const matched = new Array<boolean>(aSteps.length).fill(false);
  const rows: CompareRow[] = [];
  let next = 0; // A's steps before this index are placed
  const placeRemovedBefore = (j: number) => {
    for (; next < j; next++) if (!matched[next]) rows.push({ position: aSteps[next].position, kind: aSteps[next].kind, change: 'removed', a: side(aSteps[next]), b: null });
  };
  for (const bs of bSteps) {
    const j = aIndex.get(bs.position);
    if (j === undefined) {
      rows.push({ position: bs.position, kind: bs.kind, change: 'added', a: null, b: side(bs) });
      continue;
    }
    if (j >= next) {
      placeRemovedBefore(j);
      next = j + 1;
    }
    matched[j] = true;
    const as = aSteps[j];
    const change: RowChange = as.status !== bs.status ? 'status' : sameValue(as.output, bs.output, roots) ? 'same' : 'output';
    rows.push({ position: bs.position, kind: bs.kind, change, a: side(as), b: side(bs) });
  }
  const divergences: Divergence[] = rows.filter((r) => r.change !== 'same').map((r) => divergenceOf(r, roots, types));
  if (stoppedAt) {
    const j = aIndex.get(stoppedAt.position);
    if (j !== undefined && j >= next && !matched[j]) {
      placeRemovedBefore(j);
      matched[j] = true;
      next = j + 1;
    }
    const as = j === undefined ? null : aSteps[j];
    divergences.push({
      position: stoppedAt.position,
      kind: as?.kind ?? (stoppedAt.reason.startsWith('model') ? 'model' : 'tool'),
      change: stoppedAt.reason as DivergenceChange,
      a: as ? { seq: as.seq, status: as.status, value: relativeErrorValue(as.output, roots.a) } : null,
      b: null,
      diff: null,
      message: stoppedAt.message,
    });
  }
  for (; next < aSteps.length; next++) {
    if (matched[next]) continue;
    const s = aSteps[next];
    rows.push({ position: s.position, kind: s.kind, change: stoppedAt ? 'not_reached' : 'removed', a: side(s), b: null });
    if (!stoppedAt) divergences.push(divergenceOf(rows[rows.length - 1], roots, types));
  }
  if (!stoppedAt && (a.status !== b.status || !sameValue(a.output, b.output, roots))) divergences.push(outcomeDivergence(a, b, roots));
  return { rows, divergences, a, b, stoppedAt };
}

/** each side's step types by position (a validate's null output is said in words: noOutputWords) */
type Types = { a: ReadonlyMap<string, string | null>; b: ReadonlyMap<string, string | null> };

function divergenceOf(r: CompareRow, roots: Roots, types: Types): Divergence {
  // a side's value as it is shown: the bundle copy's files named as the run page names them, never the server's folders
  const dv = (s: StepSide | null, at: readonly string[], said: string | null): DivergenceSide | null =>
    s ? { seq: s.seq, status: s.status, value: relativeErrorValue(s.output, at), ...(said ? { said } : {}) } : null;
  const saidA = r.a ? noOutputWords(r.kind, types.a.get(r.position) ?? null, r.a.status, r.a.output) : null;
  const saidB = r.b ? noOutputWords(r.kind, types.b.get(r.position) ?? null, r.b.status, r.b.output) : null;
  const where = `${r.position} (${r.kind})`;
  let message: string;
  switch (r.change) {
    case 'added':
      message = `${where}: only in B — the ${r.kind} step ran where A recorded none`;
      break;
    case 'removed':
      message = `${where}: only in A — B has no such step`;
      break;
    case 'status':
      message = `${where}: status ${r.a!.status} → ${r.b!.status}${saidB ? ` (B ${saidB})` : saidA ? ` (A ${saidA})` : ''}`;
      break;
    default:
      message = `${where}: output changed`;
  }
  const diff = r.a && r.b && !sameValue(r.a.output, r.b.output, roots) ? diffValues(comparable(r.a.output, roots.a), comparable(r.b.output, roots.b)) : null;
  return { position: r.position, kind: r.kind, change: r.change as DivergenceChange, a: dv(r.a, roots.a, saidA), b: dv(r.b, roots.b, saidB), diff, message };
}

/** where an outcome went another way: the location its error names, else the end of the run */
function outcomePosition(o: OutcomeSide): string {
  const e = o.error;
  // the caller artifact is made at the postprocessor's end (its contract checked there, with or without steps)
  if (!e) return '__post__';
  if (typeof e.position === 'string') return e.position;
  const phase = typeof e.phase === 'string' ? e.phase : null;
  if (phase === '__post__') return typeof e.step === 'number' ? `__post__/${e.step}` : '__post__';
  if (phase && typeof e.stage === 'string' && typeof e.round === 'number' && typeof e.rung === 'string') return `${phase}/r${e.round}/${e.rung}/${e.stage}`;
  return phase ?? '(outcome)';
}


function outcomeDivergence(a: OutcomeSide, b: OutcomeSide, roots: Roots): Divergence {
  const value = (o: OutcomeSide): Json => (o.status === 'completed' ? o.output : { error: o.error });
  const statusChanged = a.status !== b.status;
  return {
    position: outcomePosition(statusChanged ? (b.error ? b : a) : b),
    kind: 'outcome',
    change: 'outcome',
    a: { seq: null, status: a.status, value: relativeErrorValue(value(a), roots.a) },
    b: { seq: null, status: b.status, value: relativeErrorValue(value(b), roots.b) },
    diff: diffValues(comparable(value(a), roots.a), comparable(value(b), roots.b)),
    message: statusChanged
      ? `the run ${b.status === 'completed' ? 'completes' : `is ${b.status}`} where A ${a.status === 'completed' ? 'completed' : `was ${a.status}`}${b.error ? `: ${errorLineOf(b.error.message, roots.b)}` : ''}`
      : 'the caller artifact changed',
  };
}
