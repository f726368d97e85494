/**
 * The state of a run at event k, read from the fold's index: the run's status,
 * where it is (phase, visit, round, what a resume would start from), the
 * current visit's transcript, the current processor chain's value, the
 * workspace and files, counts of what ran, and — at the end — the output or
 * error. `changedPaths` says which parts differ between two states.
 *
 * The state is plain JSON with a stable shape (every key always present, lists
 * in a fixed order, messages and workspace entries carrying ids), so two
 * states diff cleanly (the inspector uses jsondiffpatch on them). Values are
 * the fold's own objects, shared between neighbouring states; views copy
 * nothing until they cut large values (inspector-views.ts).
 *
 * Does not: index events (fold.ts) or say in words what happened (summaries.ts).
 */
import type { Json, JsonObject } from './json';
import { POST_PHASE } from './plan';
import type { Message, RunStatus, ToolCall } from './ports';
import { EVENT } from './events';
import { chainValueAt, countAt, countSeqs, splitRoundPosition, valueAt, workspaceContent, type ChainRec, type ChainStepRec, type ResumeState, type RunFold, type VisitRec } from './fold';
import { transcriptAt, type Through } from './fold-transcript';

export type StateMessage = {
  id: string;
  /** the seq the message entered the transcript at, and of its last post-tool rewrite */
  seq: number;
  editedSeq: number | null;
  editedBy: string | null;
  role: Message['role'];
  content: string;
  toolCallId: string | null;
  op: string | null;
  toolCalls: ToolCall[] | null;
  /** the phase's input, edited at a fork's point: that phase visit (`write`), and the visit that made the value it replaced (null: the run's input); absent otherwise */
  editedAt?: string;
  editedOver?: string | null;
};

export type StateChain = {
  /** `draft/pre`, `__post__` */
  prefix: string;
  phase: string;
  value: JsonObject;
  /** the position of the last step that ran (null before the first) */
  step: string | null;
  /**
   * that step failed (the run stopped there) or failed and was skipped (on_error: skip): nothing it
   * made entered the value, which is what it was handed; absent when its result entered the value
   */
  stepStatus?: 'failed' | 'skipped';
  /** inside an iterate: the element being worked on */
  element: { prefix: string; value: JsonObject; step: string } | null;
  /** the value is a fork's edit of a step's input, made at its point: that step (`__post__/1`); absent when it is what the run made */
  editedAt?: string;
  /**
   * where the edit is the chain's own input (a phase's input at `write`, the finish artifact at
   * `__post__`, before the chain's first step ran): the phase visit that made the value it replaced
   * (`gather`; null: the run's input); absent otherwise
   */
  editedOver?: string | null;
};

export type StepCounts = { ok: number; failed: number; refused: number; skipped: number; empty: number; error: number };
/** tool calls: those recorded, and those a pre-tool stage denied (never dispatched) */
export type ToolCounts = StepCounts & { denied: number };

export type RunState = {
  runId: string;
  seq: number;
  lastSeq: number;
  /** event k: its time and type */
  at: number | null;
  type: string | null;
  status: RunStatus;
  /** a phase name, or `__post__` in the postprocessor (null before the first phase) */
  phase: string | null;
  /** `draft`, `draft#2`, `__post__` */
  visit: string | null;
  round: number | null;
  /** what the snapshot said at k: where a resume would start (null once the run ended) */
  resume: ResumeState | null;
  /** the current phase visit's transcript (in the postprocessor: the last visit's) */
  transcript: StateMessage[];
  chain: StateChain | null;
  workspace: { path: string; seq: number; content: Json }[];
  files: { path: string; seq: number; bytes: number }[];
  counts: { events: number; model: number; tool: ToolCounts; stage: StepCounts; processor: StepCounts };
  output: Json | null;
  error: JsonObject | null;
  /** the timeline item event k belongs to: a position, a visit key, `run` */
  item: string | null;
};

const zeroCounts = (): StepCounts => ({ ok: 0, failed: 0, refused: 0, skipped: 0, empty: 0, error: 0 });

/** The state of the run after events 1..k (k = 0: before anything). */
export function stateAt(fold: RunFold, k: number): RunState {
  const seq = Math.max(0, Math.min(k, fold.lastSeq));
  const event = seq > 0 ? fold.events[seq - 1] : null;
  const where = valueAt(fold.whereAt, seq, -2);
  const visit = where >= 0 ? fold.visits[where] : where === -1 ? lastVisitBefore(fold, seq) : null;
  const inPost = where === -1;
  const ended = fold.ended && fold.ended.seq <= seq ? fold.ended : null;
  return {
    runId: fold.runId,
    seq,
    lastSeq: fold.lastSeq,
    at: event?.at ?? null,
    type: event?.type ?? null,
    status: valueAt(fold.statuses, seq, 'queued'),
    phase: inPost ? POST_PHASE : (visit?.phase ?? null),
    visit: inPost ? POST_PHASE : (visit?.key ?? null),
    round: inPost || !visit ? null : roundAt(visit, seq),
    resume: valueAt(fold.resumeStates, seq, null),
    transcript: visit ? stateMessages(fold, visit, seq, event) : [],
    chain: chainAt(fold, inPost ? null : visit, inPost, seq),
    workspace: workspaceAt(fold, seq),
    files: fold.files.slice(0, countAt(fold.files, seq)),
    counts: countsAt(fold, seq),
    output: ended ? ended.data.output : null,
    error: ended ? ended.data.error : null,
    item: event ? itemOf(event.type, event.data) : null,
  };
}

/** The top-level keys of the state that differ between a and b (cheap: the fold shares what did not change). */
export function changedPaths(a: RunState, b: RunState): string[] {
  const out: string[] = [];
  const same = (x: unknown, y: unknown) => x === y || JSON.stringify(x) === JSON.stringify(y);
  for (const key of ['status', 'phase', 'visit', 'round', 'resume', 'counts', 'output', 'error'] as const) if (!same(a[key], b[key])) out.push(`/${key}`);
  if (a.transcript.length !== b.transcript.length || a.transcript.some((m, i) => m.content !== b.transcript[i].content || m.id !== b.transcript[i].id)) out.push('/transcript');
  if (a.chain?.prefix !== b.chain?.prefix || a.chain?.value !== b.chain?.value || a.chain?.element?.value !== b.chain?.element?.value) out.push('/chain');
  if (!same(a.workspace.map((w) => [w.path, w.seq]), b.workspace.map((w) => [w.path, w.seq]))) out.push('/workspace');
  if (a.files.length !== b.files.length) out.push('/files');
  return out;
}

/** the id of the timeline item an event belongs to */
export function itemOf(type: string, data: JsonObject): string {
  if (type === EVENT.stepCompleted) return String(data.position);
  if (type === EVENT.phaseStarted || type === EVENT.phaseCompleted) return visitKey(String(data.phase), Number(data.visit));
  if (type === EVENT.finishRejected) return `${visitKey(String(data.phase), Number(data.visit))}/r${String(data.round)}`;
  if (type === EVENT.artifactPersisted) return POST_PHASE;
  if (type === EVENT.factOverridden) return `${String(data.phase)}/override/${String(data.field)}`;
  return 'run';
}

const visitKey = (phase: string, visit: number) => (visit === 1 ? phase : `${phase}#${visit}`);

function lastVisitBefore(fold: RunFold, seq: number): VisitRec | null {
  for (let i = fold.visits.length - 1; i >= 0; i--) if (fold.visits[i].startSeq <= seq) return fold.visits[i];
  return null;
}

function roundAt(visit: VisitRec, seq: number): number | null {
  let r: number | null = null;
  for (const round of visit.rounds) if (round.firstSeq <= seq) r = round.round;
  return r;
}

/**
 * The transcript as the kernel held it at event k. At a step of a round it depends on the step's
 * place in the round, not on k alone: a resumed execution replays the visit from its start, so at
 * its steps the transcript is the one of that round again. At a preprocessor step there is none yet.
 */
function stateMessages(fold: RunFold, visit: VisitRec, seq: number, event: { type: string; data: JsonObject } | null): StateMessage[] {
  let through: Through | undefined;
  if (event?.type === EVENT.stepCompleted) {
    const { visitKey: key, round } = splitRoundPosition(String(event.data.position));
    if (key === visit.key && round === null && event.data.kind === 'processor') return [];
    if (key === visit.key && round !== null) through = { round, closing: event.data.kind === 'stage' && event.data.rung === 'post-tool', edits: true };
  } else if (event?.type === EVENT.finishRejected) {
    through = { round: Number(event.data.round), closing: true, edits: true };
  }
  const t = transcriptAt(fold, visit, seq, through);
  // a phase's input a fork edited at its start goes to the model as the transcript's input (with no preprocessor between)
  const editedInput = fold.forkStart?.position === visit.key && !visit.pre ? 1 : -1;
  return t.messages.map((m, i) => ({
    id: t.meta[i].id,
    seq: t.meta[i].seq,
    editedSeq: t.meta[i].editedSeq ?? null,
    editedBy: t.meta[i].editedBy ?? null,
    role: m.role,
    content: m.content,
    toolCallId: m.role === 'tool' ? m.toolCallId : null,
    op: m.role === 'tool' ? m.op : null,
    toolCalls: m.role === 'assistant' ? (m.toolCalls ?? null) : null,
    ...(i === editedInput && m.role === 'user' ? editedStartOf(fold) : {}),
  }));
}

function chainAt(fold: RunFold, visit: VisitRec | null, inPost: boolean, seq: number): StateChain | null {
  const chain = inPost ? fold.post : visit?.pre && (visit.transcriptSeq === null || seq < visit.transcriptSeq) ? visit.pre : null;
  if (!chain || chain.startSeq > seq) return editedStartAt(fold, seq);
  const { value, step } = chainValueAt(chain, seq);
  const failed = step && (step.data.status === 'failed' || step.data.status === 'skipped') ? { stepStatus: step.data.status } : {};
  return { prefix: chain.prefix, phase: chain.phase, value, step: step?.data.position ?? null, ...failed, element: elementAt(fold, chain.prefix, seq), ...editedOf(editedAt(chain, value)) };
}

const editedOf = (at: string | null): { editedAt?: string } => (at ? { editedAt: at } : {});

/** where the chain's value at seq is a fork's edit: a step's edited input, from the fork point until that step ran */
function editedAt(chain: ChainRec, value: JsonObject): string | null {
  return chain.forkInput && !chain.replayed && value === chain.forkInput.value ? `${chain.prefix}/${chain.forkInput.index}` : null;
}

/**
 * A fork's edited value flowing in at a chain's start (a phase's input into its preprocessor, the
 * finish artifact at `__post__`): from the fork point until the chain's first step ran, the chain there
 * holds the edit, in place of what the phase before left. Null where there is none, or no chain there
 * (a phase with no preprocessor: its transcript's input says it; a postprocessor with no steps).
 */
function editedStartAt(fold: RunFold, seq: number): StateChain | null {
  const edit = fold.forkStart;
  if (!edit || edit.seq > seq) return null;
  const chain = edit.position === POST_PHASE ? fold.post : (fold.visitOf(edit.position)?.pre ?? null);
  if (!chain || chain.startSeq <= seq) return null;
  return { prefix: chain.prefix, phase: chain.phase, value: edit.value, step: null, element: null, ...editedStartOf(fold) };
}

/** where a fork edited the value flowing in at a start: there, and the visit that made the value it replaced */
function editedStartOf(fold: RunFold): { editedAt: string; editedOver: string | null } {
  const edit = fold.forkStart!;
  return { editedAt: edit.position, editedOver: lastVisitBefore(fold, edit.seq)?.key ?? null };
}

/** the innermost iterate element in progress at seq (its iterate step not yet recorded) */
function elementAt(fold: RunFold, prefix: string, seq: number): StateChain['element'] {
  const n = countAt(fold.processors, seq);
  const last: ChainStepRec | undefined = fold.processors[n - 1];
  if (!last || !last.data.nested || !last.data.position.startsWith(`${prefix}/`)) return null;
  const elementPrefix = last.data.position.slice(0, last.data.position.lastIndexOf('/'));
  const chain = fold.chainOf(elementPrefix);
  if (!chain) return null;
  return { prefix: elementPrefix, value: chainValueAt(chain, seq).value, step: last.data.position };
}

function workspaceAt(fold: RunFold, seq: number): RunState['workspace'] {
  const out: RunState['workspace'] = [];
  for (const [path, writes] of fold.workspaceByPath) {
    const n = countAt(writes, seq);
    if (n > 0) out.push({ path, seq: writes[n - 1].seq, content: workspaceContent(writes[n - 1]) });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function countsAt(fold: RunFold, seq: number): RunState['counts'] {
  const tally = <C extends StepCounts>(kind: string, c: C): C => {
    for (const status of Object.keys(c) as (keyof C & string)[]) {
      const seqs = fold.statusSeqs.get(`${kind}:${status}`);
      if (seqs) (c as Record<string, number>)[status] = countSeqs(seqs, seq);
    }
    return c;
  };
  return { events: seq, model: countAt(fold.models, seq), tool: tally('tool', { ...zeroCounts(), denied: 0 }), stage: tally('stage', zeroCounts()), processor: tally('processor', zeroCounts()) };
}
