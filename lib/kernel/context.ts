/**
 * The state one execution of a run carries, and the dependencies it was
 * handed. One `RunContext` per process driving a run (a fresh one on resume).
 *
 * Owns: the wiring. Does not: hold anything that is not derivable from the
 * event log plus the plan — a resumed context is rebuilt from the log.
 */
import type { Json, JsonObject } from './json';
import type { Faults } from './faults';
import type { Journal } from './journal';
import type { Plan } from './plan';
import type { AbortRequest, Clock, CodeSandbox, IdSource, MemoEntry, ModelPort, RunEvent, StorePort, WorkspaceFiles } from './ports';
import type { StageHandler } from './stage-types';
import type { Recording } from './recording';
import type { Evidence } from './evidence';
import type { CutShort } from './events';

export type ChildSkillRequest = {
  /** the `skill` argument of run_skill (a bundle folder name or relative path) */
  skill: string;
  input: JsonObject;
  parentRunId: string;
  /** the calling skill's bundle folder (refs resolve against its parent folder) */
  fromBundleDir: string;
  /** the calling step's position: with the parent run id it names the child run, so a resumed parent finds it */
  position: string;
};

export type KernelDeps = {
  store: StorePort;
  clock: Clock;
  ids: IdSource;
  model: ModelPort;
  sandbox: CodeSandbox;
  faults?: Faults;
  /** file/read and file/write: the run's workspace (and the bundle's own files, read-only); absent → the ops fail with a clear error */
  files?: WorkspaceFiles;
  /** runs another skill bundle (run_skill); absent → the op fails with a clear error */
  runChildSkill?: (req: ChildSkillRequest) => Promise<Json>;
  /** answers ask_user; absent → the model is told no user is attached */
  askUser?: (question: string, meta: { runId: string; phase: string }) => Promise<string>;
  /** for http/get */
  fetch?: typeof fetch;
  /** in-process stage handlers by stage name, overlaid on the plan's bindings (tests) */
  handlers?: Record<string, StageHandler>;
  /**
   * Who drives this execution (a worker's id, its host and pid …): recorded on `run_started` and
   * `run_resumed`, so the log says which process drove each part of the run.
   */
  driver?: JsonObject;
  /**
   * Aborted when this process must let go of the run (a worker stopping, its lease lost): the run
   * stops before its next step, with what precedes it committed, and stays resumable.
   */
  signal?: AbortSignal;
};

export type RunContext = {
  plan: Plan;
  deps: KernelDeps;
  runId: string;
  journal: Journal;
  /** recorded steps by position (from the log at start, plus what this process records) */
  memo: Map<string, MemoEntry>;
  /** the log as this process knows it (loaded + appended) */
  log: RunEvent[];
  /** every tool outcome's text so far (the evidence post-model checks read; evidence.ts) */
  evidence: Evidence;
  /** hashes of the request frames the log holds (each is recorded once; events.ts RequestFrame) */
  frames: Set<string>;
  faults: Faults;
  /** marker events already in the log (see markers.ts) */
  markers: Set<string>;
  /** the visit key of the phase being run (`draft`, `draft#2`) */
  currentVisit: string;
  /** a replay's or a fork's second memo: its parent's recorded steps (recording.ts); null for a plain run */
  recording: Recording | null;
  /** the step whose execution threw what is ending the run (a model call that failed): its position goes in the run's error */
  failedAt: string | null;
  /** the step an abort request cut short, and how long it had run (the run's error says it: a step cut short records nothing) */
  cutShort?: CutShort;
  /**
   * A user's request to abort the run, once its driver has heard of it (runner.ts watches the
   * store for it): `signal` is then aborted, which cuts the step in flight short (its code worker
   * is killed, its model call aborted, its wait ended) and stops the run before its next step.
   * Absent where nothing can ask (a fork's probe, a regress run).
   */
  abort?: { request: AbortRequest | null; signal: AbortSignal };
};
