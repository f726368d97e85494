/**
 * What a capability stage is handed and what it may return, per rung.
 *
 * A stage *returns* a contribution; it never mutates the run. Contexts are
 * plain JSON (they cross into a child process for module capabilities), and
 * carry what the rung is about: post-model the whole turn, pre-/post-tool the
 * whole batch positionally aligned, post-tool also the transcript the next
 * round will be sent.
 *
 * Owns: the context and contribution shapes. Does not: dispatch (dispatcher.ts)
 * or apply contributions (phase-runner.ts).
 */
import type { Json, JsonObject } from './json';
import type { Message, ModelTurn, ToolCall } from './ports';
import type { Rung } from './plan';

export type ToolOutcome = {
  callId: string;
  op: string;
  status: 'ok' | 'error' | 'denied';
  /** what the model reads */
  content: string;
  /** the op's structured result, when ok */
  data?: Json;
};

export type StageContextBase = {
  runId: string;
  phase: string;
  round: number;
  rung: Rung;
  stage: string;
  with: JsonObject;
};

export type StageContext = StageContextBase & {
  /** prompt-assembly: the request about to be sent */
  messages?: Message[];
  /** post-model, pre-tool, post-tool, finalize: the model's turn */
  turn?: ModelTurn;
  /** pre-tool / post-tool: the batch, aligned by position */
  requests?: ToolCall[];
  outcomes?: ToolOutcome[];
  /** post-tool: the transcript the next round is sent; post-model: the transcript so far */
  transcript?: Message[];
  /** finalize: the finish artifact about to be checked */
  artifact?: JsonObject;
  /** post-model: every tool outcome of the run so far (the evidence) */
  evidence?: string[];
};

export type Contribution = {
  system?: string;
  messages?: Message[];
  annotations?: { kind: string; message: string; severity: 'info' | 'warning' | 'error' }[];
  deny?: Record<string, string>;
  args?: Record<string, JsonObject>;
  outcomes?: Record<string, Partial<ToolOutcome> & { content: string }>;
  artifact?: JsonObject;
  /** artifacts a stage asks to keep in the workspace (path -> content), e.g. the full text of a cut tool result */
  workspace?: Record<string, Json>;
};

/** An in-process handler (builtins, and test overlays). */
export type StageHandler = (ctx: StageContext) => Contribution | void | Promise<Contribution | void>;

/** which contribution keys each rung honours */
export const RUNG_KEYS: Record<Rung, readonly (keyof Contribution)[]> = {
  'prompt-assembly': ['system', 'messages'],
  'post-model': ['annotations'],
  'pre-tool': ['deny', 'args'],
  'post-tool': ['outcomes', 'workspace'],
  finalize: ['artifact'],
};
