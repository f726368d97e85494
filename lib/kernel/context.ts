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
import type { Clock, CodeSandbox, IdSource, MemoEntry, ModelPort, RunEvent, StorePort } from './ports';
import type { StageHandler } from './stage-types';

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
  /** the run's folder: file/write writes here, file/read reads here first (default: the bundle folder) */
  fileRoot?: string;
  /** a folder file/read also reads, read-only, for a path the run's folder has no file at (the bundle) */
  fileReadFallback?: string;
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
  /** every tool outcome's text so far (the evidence post-model checks read) */
  evidence: string[];
  faults: Faults;
  /** marker events already in the log (see markers.ts) */
  markers: Set<string>;
  /** the visit key of the phase being run (`draft`, `draft#2`) */
  currentVisit: string;
};
