/**
 * The fold: the one interpretation of a run's event log. Everything that needs
 * to know what a run was at event k — the inspector's scrubber and detail
 * panel, the run report's words, the tests that hold resume to its snapshot,
 * and (later) replay — reads it from here; the browser never interprets
 * events itself.
 *
 * `RunFold` indexes the log as it grows (`append`, O(1) per event): phase
 * visits → rounds → the records at each position, processor chains with the
 * value after each step, workspace writes, the snapshot moves, and seq-ordered
 * lists per step kind. The state at k is then *read* from the index
 * (fold-state.ts), in time proportional to what that state holds, not to k: a
 * scrub step never refolds 1..k, and a live run's fold is extended by its new
 * events, never rebuilt. Values are shared, never copied (the kernel's merges
 * make new objects), so states at neighbouring seqs share what did not change.
 *
 * It follows the kernel's own rules, imported rather than restated: how a
 * step's result enters a chain (`mergeResult`), the transcript's messages
 * (phase-runner.ts), the evidence (evidence.ts), the snapshot moves
 * (runner.ts). A position recorded twice (a world read re-executed on resume)
 * is read at its latest record.
 *
 * Does not: read the store, or hash anything (rebuild.ts verifies rebuilt
 * inputs against the recorded memo keys, on demand).
 */
import { EVENT, EXECUTES_FROM, type ArtifactPersistedData, type FactOverriddenData, type FinishRejectedData, type ForkPointReachedData, type ModelStepData, type PhaseCompletedData, type PhaseStartedData, type ProcessorStepData, type ProgramStage, type RequestFrame, type RunEndedData, type RunResumedData, type RunStartedData, type StageStepData, type StepCompletedData, type ToolStepData } from './events';
import type { Json, JsonObject } from './json';
import { isJsonObject } from './json';
import { POST_PHASE } from './plan';
import { RUN_INPUT_POINT } from './fork-edits';
import type { RunEvent, RunStatus } from './ports';
import { getPath, renderTemplate } from './value-path';
import { applyStepResult, chainValueAt, currentValue, replayValue } from './fold-chains';
import type { Change } from './fold-lists';
import { FINISH_ARTIFACT_PATH } from './runner';
import { requestsAfterPreTool } from './fold-transcript';
import { deniedCallPositions } from './report';

export type Rec<D> = { seq: number; at: number; data: D };

export type RoundRec = {
  /** `draft/r2`, `draft#2/r1` */
  id: string;
  round: number;
  firstSeq: number;
  /** every stage record of the round, in seq order */
  stages: Rec<StageStepData>[];
  model: Rec<ModelStepData> | null;
  /** tool records by call index (the latest record of each) */
  tools: Rec<ToolStepData>[][];
  rejected: Rec<FinishRejectedData> | null;
  /** the seq at which the round's closing messages (record_tools, a retry, "continue") entered the transcript */
  closedAt: number | null;
};

export type ChainStepRec = Rec<ProcessorStepData> & { before: JsonObject; after: JsonObject };

export type ChainRec = {
  /** `draft/pre`, `__post__`, or an iterate's element `__post__/2/0` */
  prefix: string;
  phase: string;
  startSeq: number;
  start: JsonObject;
  /** every record, in seq order */
  steps: ChainStepRec[];
  /** a position was recorded again (a resume re-executed a world read, and replayed the steps after it) */
  replayed: boolean;
  /** a fork edited what step `index` was given (`__post__/1/input`): the value flowing into it from then on */
  forkInput?: { index: number; value: JsonObject; seq: number };
};

export type VisitRec = {
  /** `draft`, `draft#2` */
  key: string;
  phase: string;
  visit: number;
  startSeq: number;
  endSeq: number | null;
  input: JsonObject;
  frame: string | null;
  pre: ChainRec | null;
  rounds: RoundRec[];
  /** the seq of the visit's first round event: the transcript exists from then */
  transcriptSeq: number | null;
  completed: Rec<PhaseCompletedData> | null;
  overrides: Rec<FactOverriddenData>[];
};

/** What the snapshot says at a point of the log: where a resume would start. */
export type ResumeState = { currentPhase: string; seq: number; data: JsonObject };

/** a workspace write; a processor's run_op's content is resolved when first read (its chain may open after it) */
export type WorkspaceRec = { seq: number; path: string; content: Json | undefined; resolve?: () => Json };

export function workspaceContent(w: WorkspaceRec): Json {
  if (w.content === undefined) w.content = w.resolve?.() ?? null;
  return w.content;
}
export type FileRec = { seq: number; path: string; bytes: number };


export class RunFold {
  readonly runId: string;
  readonly events: RunEvent[] = [];
  readonly visits: VisitRec[] = [];
  post: ChainRec | null = null;
  started: Rec<RunStartedData> | null = null;
  ended: Rec<RunEndedData> & { type: string } | null = null;
  readonly resumes: Rec<RunResumedData>[] = [];
  /** the folders the run's executions ran from, in order (start, admission, resumes: provenance.ts) */
  readonly bundleDirs: string[] = [];
  readonly frames = new Map<string, RequestFrame>();
  /** every step record, by position (several when a position was recorded again) */
  readonly records = new Map<string, RunEvent[]>();
  readonly models: Rec<ModelStepData>[] = [];
  readonly tools: Rec<ToolStepData>[] = [];
  readonly stages: Rec<StageStepData>[] = [];
  readonly processors: ChainStepRec[] = [];
  readonly workspace: WorkspaceRec[] = [];
  /** the workspace writes of each path, in seq order (the workspace at k is read per path) */
  readonly workspaceByPath = new Map<string, WorkspaceRec[]>();
  /** the seqs of the step records of each `kind:status` (counts at k are a binary search) */
  readonly statusSeqs = new Map<string, number[]>();
  /** the positions of the tool calls pre-tool stages denied (counted once, at the first denial) */
  private readonly deniedCalls = new Set<string>();
  readonly files: FileRec[] = [];
  readonly persisted: Rec<ArtifactPersistedData>[] = [];
  readonly statuses: Change<RunStatus>[] = [];
  readonly resumeStates: Change<ResumeState | null>[] = [];
  /** which visit is current from a seq on (`-1`: the postprocessor) */
  readonly whereAt: Change<number>[] = [];
  readonly programs: Change<ProgramStage[]>[] = [];
  /** the request frame of a phase for a run recorded before frames were (lib/server compiles it from the version) */
  fallbackFrame?: (phase: string) => RequestFrame | null;
  private readonly visitByKey = new Map<string, VisitRec>();
  private readonly chains = new Map<string, ChainRec>();
  /**
   * a fork's edited input of a step (`__post__/1/input`, `draft/r1/pre-tool/0`): what that step was
   * handed, which the log holds nowhere else (an edited phase input or finish artifact is in the
   * events that carry it)
   */
  private forkInput: { position: string; value: JsonObject; seq: number } | null = null;
  /**
   * a fork's edited value flowing in at a start (a phase's input at `write`, the finish artifact at
   * `__post__`): from its point what the phase or the chain there starts from (the events that carry
   * it say nothing of the edit)
   */
  forkStart: { position: string; value: JsonObject; seq: number } | null = null;
  private visitCounts: Record<string, number> = {};

  constructor(runId: string, events: readonly RunEvent[] = []) {
    this.runId = runId;
    this.append(events);
  }

  get lastSeq(): number {
    return this.events.length;
  }

  /** Folds the next events of the log in (they must continue its seqs; ones already folded are skipped). */
  append(events: readonly RunEvent[]): void {
    for (const e of events) {
      if (e.seq <= this.events.length) continue;
      if (e.seq !== this.events.length + 1) throw new Error(`the fold of run ${this.runId} is at seq ${this.events.length}; it cannot take seq ${e.seq} (a gap)`);
      this.events.push(e);
      this.apply(e);
    }
  }

  visitOf(key: string): VisitRec | undefined {
    return this.visitByKey.get(key);
  }

  /** what a fork handed the step at `position` in place of the value flowing there (its edited input), if it did */
  editedInputOf(position: string): JsonObject | undefined {
    return this.forkInput?.position === position ? this.forkInput.value : undefined;
  }

  chainOf(prefix: string): ChainRec | undefined {
    return this.chains.get(prefix);
  }

  private apply(e: RunEvent): void {
    const rec = { seq: e.seq, at: e.at };
    if (EXECUTES_FROM.has(e.type) && typeof e.data.bundleDir === 'string') this.bundleDirs.push(e.data.bundleDir);
    switch (e.type) {
      case EVENT.runStarted: {
        const d = e.data as unknown as RunStartedData;
        this.started = { ...rec, data: d };
        this.statuses.push({ seq: e.seq, value: 'running' });
        if (d.stages) this.programs.push({ seq: e.seq, value: d.stages });
        this.resumeStates.push({ seq: e.seq, value: { currentPhase: d.entry ?? '', seq: e.seq, data: { phaseInput: d.input, visits: {} } } });
        return;
      }
      case EVENT.runResumed: {
        const d = e.data as unknown as RunResumedData;
        this.resumes.push({ ...rec, data: d });
        if (d.stages) this.programs.push({ seq: e.seq, value: d.stages });
        return;
      }
      case EVENT.phaseStarted:
        return this.startVisit(e.seq, e.at, e.data as unknown as PhaseStartedData);
      case EVENT.stepCompleted:
        return this.applyStep(e);
      case EVENT.finishRejected: {
        const d = e.data as unknown as FinishRejectedData;
        const round = this.roundOf(this.visitByKey.get(visitKeyOf(d.phase, d.visit)), d.round, e.seq);
        if (round) {
          round.rejected = { ...rec, data: d };
          round.closedAt ??= e.seq;
        }
        return;
      }
      case EVENT.phaseCompleted: {
        const d = e.data as unknown as PhaseCompletedData;
        const v = this.visitByKey.get(visitKeyOf(d.phase, d.visit));
        if (v) {
          v.completed = { ...rec, data: d };
          v.endSeq = e.seq;
        }
        this.visitCounts = { ...this.visitCounts, [d.phase]: d.visit };
        if (d.next !== null) {
          this.resumeStates.push({ seq: e.seq, value: { currentPhase: d.next, seq: e.seq, data: { phaseInput: d.artifact, visits: this.visitCounts } } });
        }
        return;
      }
      case EVENT.artifactPersisted: {
        const d = e.data as unknown as ArtifactPersistedData;
        this.persisted.push({ ...rec, data: d });
        const finish = this.finishArtifact();
        if (finish) this.keep({ seq: e.seq, path: d.path, content: finish });
        this.resumeStates.push({ seq: e.seq, value: { currentPhase: POST_PHASE, seq: e.seq, data: { finishPath: d.path } } });
        this.whereAt.push({ seq: e.seq, value: -1 });
        return;
      }
      case EVENT.forkPointReached: {
        const d = e.data as unknown as ForkPointReachedData;
        if (d.target === 'input' && d.position.includes('/') && isJsonObject(d.edited)) this.forkInput = { position: d.position, value: d.edited, seq: e.seq };
        if (d.target === 'input' && !d.position.includes('/') && d.position !== RUN_INPUT_POINT && isJsonObject(d.edited)) this.forkStart = { position: d.position, value: d.edited, seq: e.seq };
        return;
      }
      case EVENT.factOverridden: {
        const d = e.data as unknown as FactOverriddenData;
        const v = this.currentVisit();
        if (v && v.phase === d.phase) v.overrides.push({ ...rec, data: d });
        return;
      }
      case EVENT.runCompleted:
      case EVENT.runFailed:
      case EVENT.runAborted: {
        this.ended = { ...rec, type: e.type, data: e.data as unknown as RunEndedData };
        const status: RunStatus = e.type === EVENT.runCompleted ? 'completed' : e.type === EVENT.runFailed ? 'failed' : 'aborted';
        this.statuses.push({ seq: e.seq, value: status });
        this.resumeStates.push({ seq: e.seq, value: null });
        for (const v of this.visits) v.endSeq ??= e.seq;
        return;
      }
    }
  }

  private startVisit(seq: number, at: number, d: PhaseStartedData): void {
    if (d.frame && d.frameValue) this.frames.set(d.frame, d.frameValue);
    const key = visitKeyOf(d.phase, d.visit);
    const v: VisitRec = {
      key,
      phase: d.phase,
      visit: d.visit,
      startSeq: seq,
      endSeq: null,
      input: d.input,
      frame: d.frame ?? null,
      pre: null,
      rounds: [],
      transcriptSeq: null,
      completed: null,
      overrides: [],
    };
    void at;
    this.visits.push(v);
    this.visitByKey.set(key, v);
    this.whereAt.push({ seq, value: this.visits.length - 1 });
  }

  private countStatus(key: string, seq: number): void {
    const seqs = this.statusSeqs.get(key);
    if (seqs) seqs.push(seq);
    else this.statusSeqs.set(key, [seq]);
  }

  private applyStep(e: RunEvent): void {
    const d = e.data as unknown as StepCompletedData;
    const list = this.records.get(d.position);
    if (list) list.push(e);
    else this.records.set(d.position, [e]);
    this.countStatus(`${d.kind}:${d.status}`, e.seq);
    // a call a pre-tool stage denied is never dispatched: counted among the tool calls at its denial
    for (const p of deniedCallPositions(e.data)) {
      if (this.deniedCalls.has(p)) continue;
      this.deniedCalls.add(p);
      this.countStatus('tool:denied', e.seq);
    }
    const rec = { seq: e.seq, at: e.at };
    if (d.kind === 'processor') return this.applyProcessor({ ...rec, data: d });
    const { visitKey, round: roundNo } = splitRoundPosition(d.position);
    const visit = visitKey === null ? undefined : this.visitByKey.get(visitKey);
    if (d.kind === 'tool' && roundNo === null) {
      // a processor's run_op (`…/3/op`): its args come from the chain's current value
      this.tools.push({ ...rec, data: d });
      if (d.status === 'ok') this.noteWrites(e.seq, d, () => this.processorArgs(d.position, e.seq), true);
      return;
    }
    const round = roundNo === null ? null : this.roundOf(visit, roundNo, e.seq);
    if (visit && round) {
      // the first round event of a visit builds its transcript; a later round's closes the rounds before it
      visit.transcriptSeq ??= e.seq;
      for (const r of visit.rounds) if (r.round < round.round && r.closedAt === null && closes(r)) r.closedAt = e.seq;
    }
    switch (d.kind) {
      case 'model': {
        const m = { ...rec, data: d };
        this.models.push(m);
        if (d.frame && d.frameValue) this.frames.set(d.frame, d.frameValue);
        if (round) round.model = m;
        return;
      }
      case 'tool': {
        const t = { ...rec, data: d };
        this.tools.push(t);
        if (round && d.index !== undefined) (round.tools[d.index] ??= []).push(t);
        if (d.status === 'ok') this.noteWrites(e.seq, d, () => (round && d.index !== undefined ? this.modelCallArgs(round, d.index, e.seq) : {}));
        return;
      }
      case 'stage': {
        const s = { ...rec, data: d };
        this.stages.push(s);
        if (!round) return;
        // the round's tool batch is folded into the transcript before post-tool runs (record_tools)
        if (d.rung === 'post-tool' && round.closedAt === null && (round.model?.data.output.toolCalls.length ?? 0) > 0) round.closedAt = e.seq;
        round.stages.push(s);
        if (d.status === 'ok' && 'contribution' in d.output && isJsonObject(d.output.contribution.workspace)) {
          for (const [path, content] of Object.entries(d.output.contribution.workspace)) this.keep({ seq: e.seq, path, content });
        }
        return;
      }
    }
  }

  /** The args of model call `index` of a round as dispatched: the turn's, rewritten by pre-tool stages. */
  private modelCallArgs(round: RoundRec, index: number, seq: number): JsonObject {
    const edited = this.editedInputOf(`${round.id}/tool/${index}`);
    if (edited) return edited;
    if (!round.model) return {};
    return requestsAfterPreTool(round, seq)[index]?.args ?? {};
  }

  /**
   * A processor's run_op args (its op recorded at `seq`): the step's template rendered against its
   * chain's value at that seq. Asked once the step itself is recorded (it holds the template).
   */
  processorArgs(opPosition: string, seq: number): JsonObject {
    const edited = this.editedInputOf(opPosition);
    if (edited) return edited;
    const stepPosition = opPosition.slice(0, opPosition.lastIndexOf('/'));
    const step = this.records.get(stepPosition)?.find((r) => r.seq > seq) ?? this.records.get(stepPosition)?.[0];
    const def = step?.data.definition;
    const template = isJsonObject(def) && isJsonObject(def.args) ? def.args : null;
    const chain = this.chains.get(stepPosition.slice(0, stepPosition.lastIndexOf('/')));
    if (!chain || !template) return {};
    try {
      const args = renderTemplate(template, chainValueAt(chain, seq).value, 'run_op');
      return isJsonObject(args) ? args : {};
    } catch {
      return {};
    }
  }

  /** workspace and file writes an ok tool call made (`args` is asked only for a workspace write; `later`: when first read) */
  private noteWrites(seq: number, d: ToolStepData, args: () => JsonObject, later = false): void {
    const out = isJsonObject(d.output) ? d.output : null;
    if (!out || typeof out.path !== 'string') return;
    if (d.op === 'workspace/write') {
      const content = () => args().content ?? null;
      this.keep(later ? { seq, path: out.path, content: undefined, resolve: content } : { seq, path: out.path, content: content() });
    }
    if (d.op === 'file/write') this.files.push({ seq, path: out.path, bytes: typeof out.bytes === 'number' ? out.bytes : 0 });
  }

  private applyProcessor(r: Rec<ProcessorStepData>): void {
    const d = r.data;
    const chainPrefix = d.position.slice(0, d.position.lastIndexOf('/'));
    const chain = this.chainFor(chainPrefix, d.phase, r.seq, d.nested ? (d.overs ?? []) : []);
    // a position recorded again (re-executed on resume) starts from the value of the steps before it
    // as the resumed execution had them: the latest record of each, in chain order
    const last = chain.steps[chain.steps.length - 1];
    if (last && (chain.replayed || last.data.index >= d.index)) chain.replayed = true;
    const edited = this.editedInputOf(d.position);
    if (edited) chain.forkInput = { index: d.index, value: edited, seq: this.forkInput!.seq };
    const before = chain.replayed ? replayValue(chain, r.seq, d.index) : edited ?? currentValue(chain);
    const after = applyStepResult(before, d);
    const step: ChainStepRec = { ...r, before, after };
    chain.steps.push(step);
    this.processors.push(step);
  }

  /**
   * The chain at `prefix`, opened with its start value if it is new: a pre- or postprocessor starts
   * from the phase input or the finish artifact; an iterate's element (`overs` names the arrays of
   * the iterates it is nested in, outermost first) from its element of the enclosing chain's array,
   * as the kernel hands it — the enclosing chains are opened as needed (their own records come after).
   */
  private chainFor(prefix: string, phase: string, seq: number, overs: readonly string[]): ChainRec {
    const known = this.chains.get(prefix);
    if (known) return known;
    let start: JsonObject;
    if (overs.length > 0) {
      const iterate = prefix.slice(0, prefix.lastIndexOf('/'));
      const element = Number(prefix.slice(prefix.lastIndexOf('/') + 1));
      const parent = this.chainFor(iterate.slice(0, iterate.lastIndexOf('/')), phase, seq, overs.slice(0, -1));
      const arr = getPath(currentValue(parent), overs[overs.length - 1]);
      const el = Array.isArray(arr) ? arr[element] : undefined;
      start = isJsonObject(el) ? el : { value: el ?? null };
    } else if (prefix === POST_PHASE) {
      start = this.finishArtifact() ?? {};
    } else {
      start = this.visitByKey.get(prefix.slice(0, -'/pre'.length))?.input ?? {};
    }
    const chain: ChainRec = { prefix, phase, startSeq: seq, start, steps: [], replayed: false };
    this.chains.set(prefix, chain);
    if (prefix === POST_PHASE) this.post = chain;
    else if (overs.length === 0) {
      const v = this.visitByKey.get(prefix.slice(0, -'/pre'.length));
      if (v) v.pre = chain;
    }
    return chain;
  }

  private keep(w: WorkspaceRec): void {
    this.workspace.push(w);
    const list = this.workspaceByPath.get(w.path);
    if (list) list.push(w);
    else this.workspaceByPath.set(w.path, [w]);
  }

  /** the terminal phase's finish artifact (what the postprocessor starts from) */
  finishArtifact(): JsonObject | null {
    for (let i = this.visits.length - 1; i >= 0; i--) {
      const c = this.visits[i].completed;
      if (c && c.data.next === null) return c.data.artifact;
    }
    const kept = this.workspace.findLast((w) => w.path === FINISH_ARTIFACT_PATH);
    const content = kept ? workspaceContent(kept) : null;
    return isJsonObject(content) ? content : null;
  }

  private currentVisit(): VisitRec | undefined {
    const w = this.whereAt[this.whereAt.length - 1];
    return w && w.value >= 0 ? this.visits[w.value] : undefined;
  }

  private roundOf(visit: VisitRec | undefined, round: number, seq: number): RoundRec | null {
    if (!visit) return null;
    let r = visit.rounds.find((x) => x.round === round);
    if (!r) {
      r = { id: `${visit.key}/r${round}`, round, firstSeq: seq, stages: [], model: null, tools: [], rejected: null, closedAt: null };
      visit.rounds.push(r);
    }
    return r;
  }
}

export function visitKeyOf(phase: string, visit: number): string {
  return visit === 1 ? phase : `${phase}#${visit}`;
}

/** `draft#2/r3/post-tool/budget` → visit `draft#2`, round 3; null parts for positions outside a round */
export function splitRoundPosition(position: string): { visitKey: string | null; round: number | null } {
  const parts = position.split('/');
  const m = parts.length > 1 ? /^r(\d+)$/.exec(parts[1]) : null;
  if (!m) return { visitKey: parts.length > 1 ? parts[0] : null, round: null };
  return { visitKey: parts[0], round: Number(m[1]) };
}

/** a round that adds messages when it ends: tool calls (record_tools), or a reply that did not finish */
function closes(r: RoundRec): boolean {
  const turn = r.model?.data.output;
  return Boolean(turn && (turn.toolCalls.length > 0 || !turn.finish));
}

export { chainValueAt, currentValue } from './fold-chains';
export { countAt, countSeqs, valueAt } from './fold-lists';
