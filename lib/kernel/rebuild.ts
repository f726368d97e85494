/**
 * Rebuilt inputs: what each recorded step was handed, rebuilt from the log.
 * The log keeps a step's definition and output, not its input; the fold has
 * the rest — the recorded turns, contributions, outcomes, chain values and the
 * content-addressed request frames — so a stage's context, the request a
 * model turn was sent, a tool call's args and a processor step's input are
 * rebuilt here, exactly, with no plan.
 *
 * Each rebuilt input is checked against the step's recorded memo key (the hash
 * of its phase, position, definition and input): `verified` says the input
 * rebuilt is the input the kernel hashed when it ran the step. A run recorded
 * before request frames were (its system prompt then comes from the version's
 * plan, `RunFold.fallbackFrame`) may not verify; the view says so rather than
 * show a guess as a fact.
 *
 * Owns: the rebuilding and the check. Does not: index events (fold.ts) or cut
 * large values for the browser (inspector views do).
 */
import type { ModelStepData, ProcessorStepData, StageStepData, ToolStepData } from './events';
import type { Json, JsonObject } from './json';
import type { ModelRequest, RunEvent } from './ports';
import type { StageContext } from './stage-types';
import { memoKey } from './memo';
import { digestContext } from './stages';
import { Evidence } from './evidence';
import { splitRoundPosition, type Rec, type RoundRec, type RunFold, type VisitRec } from './fold';
import { frameOf, outcomesAt, requestMessages, requestsAfterPreTool, requestsOf, transcriptAt } from './fold-transcript';

export type Rebuilt =
  | { kind: 'stage'; seq: number; context: StageContext; verified: boolean }
  | { kind: 'model'; seq: number; request: ModelRequest; verified: boolean }
  | { kind: 'tool'; seq: number; args: JsonObject; verified: boolean }
  | { kind: 'processor'; seq: number; input: JsonObject; verified: boolean };

/** What the step recorded at `seq` was handed; null for an event that is not a step, or a step outside what the fold knows. */
export function rebuildStep(fold: RunFold, seq: number): Rebuilt | null {
  const e: RunEvent | undefined = fold.events[seq - 1];
  if (!e || e.type !== 'step_completed') return null;
  const kind = e.data.kind;
  if (kind === 'processor') return rebuildProcessor(fold, { seq, at: e.at, data: e.data as unknown as ProcessorStepData });
  if (kind === 'tool' && splitRoundPosition(String(e.data.position)).round === null) {
    const d = e.data as unknown as ToolStepData;
    const args = fold.processorArgs(d.position, seq);
    return { kind: 'tool', seq, args, verified: verifies(d, args) };
  }
  const found = locate(fold, String(e.data.position));
  if (!found) return null;
  const { visit, round } = found;
  if (kind === 'model') return rebuildModel(fold, visit, round, e.data as unknown as ModelStepData, seq);
  if (kind === 'tool') {
    const d = e.data as unknown as ToolStepData;
    // a fork's edited arguments were dispatched in place of the ones the turn and pre-tool stages made
    const args = fold.editedInputOf(d.position) ?? requestsAfterPreTool(round, seq)[d.index ?? -1]?.args ?? {};
    return { kind: 'tool', seq, args, verified: verifies(d, args) };
  }
  if (kind === 'stage') {
    const context = stageContext(fold, visit, round, { seq, at: e.at, data: e.data as unknown as StageStepData });
    return { kind: 'stage', seq, context, verified: verifies(e.data as unknown as StageStepData, stageMemoInput(context)) };
  }
  return null;
}

/** The request a round's model turn was sent. */
export function rebuildModel(fold: RunFold, visit: VisitRec, round: RoundRec, d: ModelStepData, seq: number): Rebuilt {
  const frame = frameOf(fold, visit, round);
  const messages = requestMessages(fold, visit, round).messages;
  const request: ModelRequest = {
    runId: fold.runId,
    phase: visit.phase,
    visit: visit.visit,
    round: round.round,
    messages,
    tools: frame?.tools ?? [],
    responseFormat: frame?.responseFormat ?? null,
  };
  const input = { messages, tools: d.definition.tools, responseFormat: request.responseFormat } as unknown as Json;
  return { kind: 'model', seq, request, verified: frame !== null && verifies(d, input) };
}

/** The context a stage's handler was handed (what its rung is about, plus run id, round, rung, stage, with). */
export function stageContext(fold: RunFold, visit: VisitRec, round: RoundRec, s: Rec<StageStepData>): StageContext {
  const d = s.data;
  const base: StageContext = { runId: fold.runId, phase: d.phase, round: d.round, rung: d.rung, stage: d.stage, with: d.definition.with };
  const turn = round.model?.data.output;
  // what the round's rung saw: the rounds before it, and for post-tool the batch just recorded (not yet rewritten)
  const transcript = () => transcriptAt(fold, visit, s.seq, { round: round.round, closing: d.rung === 'post-tool', edits: false }).messages;
  switch (d.rung) {
    case 'prompt-assembly':
      return { ...base, messages: transcript() };
    case 'post-model':
      return { ...base, turn, transcript: transcript(), evidence: evidenceAt(fold, s.seq) };
    case 'pre-tool':
      return { ...base, turn, requests: requestsOf(round), transcript: transcript() };
    case 'post-tool': {
      const outcomes = outcomesAt(round, s.seq).filter((o) => o !== null);
      return { ...base, turn, requests: requestsAfterPreTool(round, s.seq), outcomes, transcript: transcript() };
    }
    case 'finalize':
      return { ...base, turn, artifact: { ...(turn?.finish ?? {}) } };
  }
}

/** What a processor step was handed: its chain's value before it. */
function rebuildProcessor(fold: RunFold, r: Rec<ProcessorStepData>): Rebuilt | null {
  const prefix = r.data.position.slice(0, r.data.position.lastIndexOf('/'));
  const chain = fold.chainOf(prefix);
  const step = chain?.steps.find((s) => s.seq === r.seq);
  if (!chain || !step) return null;
  return { kind: 'processor', seq: r.seq, input: step.before, verified: verifies(r.data, step.before) };
}

/** every tool outcome recorded before seq, as post-model stages are handed it (evidence.ts) */
export function evidenceAt(fold: RunFold, seq: number): string[] {
  const ev = new Evidence();
  for (const t of fold.tools) {
    if (t.seq >= seq) break;
    if (t.data.status === 'ok') ev.record(t.data.position, t.data.output);
  }
  return ev.list();
}

function stageMemoInput(c: StageContext): Json {
  const { runId: _r, phase: _p, round: _n, rung: _g, stage, with: w, ...rest } = c;
  return { ...digestContext(rest), stage, with: w };
}

/** the recorded key equals the key of the rebuilt input: the input is the one the kernel hashed */
function verifies(d: { phase: string; position: string; defHash: string; key: string }, input: unknown): boolean {
  return memoKey(d.phase, d.position, d.defHash, input) === d.key;
}

function locate(fold: RunFold, position: string): { visit: VisitRec; round: RoundRec } | null {
  const { visitKey, round } = splitRoundPosition(position);
  const visit = visitKey === null ? undefined : fold.visitOf(visitKey);
  const r = visit?.rounds.find((x) => x.round === round);
  return visit && r ? { visit, round: r } : null;
}
