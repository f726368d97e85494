/**
 * The kernel's ports: everything the kernel needs from the outside world,
 * handed to it by the composition root (CLI, app, tests).
 *
 * Owns: the contracts for the store, the clock, ids, the code sandbox, the
 * workspace's files and the model. Does not: implement any of them (memory-store.ts is the in-memory
 * store; lib/store is the Prisma one; lib/sandbox runs code; lib/models holds
 * the model adapters).
 */
import type { Json, JsonObject, JsonSchema } from './json';
import type { Rung } from './plan';

// ---------------------------------------------------------------- clock, ids
export type Clock = { now(): number };
export type IdSource = { newId(kind: 'run' | 'trace' | 'call'): string };

/** What the kernel hands a port's call besides its request: the signal of an abort a user asked for. */
export type CallOptions = { signal?: AbortSignal };

// ---------------------------------------------------------------- model
export type ToolCall = { id: string; op: string; args: JsonObject };
export type Message =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; op: string; content: string };

export type ToolSpec = { name: string; description: string; parameters: JsonSchema };

export type ModelRequest = {
  runId: string;
  phase: string;
  /** 1 for the first visit of the phase, 2 when the graph comes back to it … (the kernel always sets it) */
  visit?: number;
  round: number;
  messages: Message[];
  tools: ToolSpec[];
  /** JSON Schema derived from the phase's contract, for providers that enforce it */
  responseFormat: JsonSchema | null;
};

export type ModelTurn = {
  text: string;
  toolCalls: ToolCall[];
  /** the finish artifact, when the model finished this round */
  finish: JsonObject | null;
  usage?: { inputTokens: number; outputTokens: number };
};

export type ModelPort = {
  /** e.g. `scripted:examples/x/model.yaml`, `openai:gpt-4o-mini`, `replay:RUN` */
  readonly name: string;
  /**
   * Answers at once from what this process holds (a script, a recording): nothing is paid and
   * nothing is waited for, so a run not recorded yet is not recorded just to ask it — it is recorded
   * with its first commit after the turn (journal.ts deferCreation). A remote model leaves it unset:
   * a run is in the store, seen and abortable, before a call that is paid for and may take minutes.
   */
  readonly local?: boolean;
  /** `signal`: aborted when the run is asked to abort; the call should stop (its request aborted) */
  invoke(req: ModelRequest, opts?: CallOptions): Promise<ModelTurn>;
};

// ---------------------------------------------------------------- code sandbox
export type CodeCall = {
  language: 'python' | 'node';
  /** absolute module path */
  modulePath: string;
  exportName: string;
  input: Json;
  timeoutMs: number;
  /**
   * A fused run of pure steps of this module (`exportName` is then the first):
   * each step gets the previous value with the last result merged in (or stored
   * under `into`). Resolves to `{ outputs }`, one per step that completed; the
   * run stops early at a step that fails or returns something unmergeable.
   */
  chain?: { exportName: string; into: string | null }[];
};

/** The code a run is about to call (`CodeSandbox.warm`): its language and module. */
export type CodeWarmUp = Pick<CodeCall, 'language' | 'modulePath'>;

/**
 * What a code call printed on stdout and stderr, when it printed anything: of each stream its head and
 * tail (lib/sandbox/call-output.ts: at most 4 KiB each, what was left out between them said on a line
 * of its own, as a failed call's error carries them), '' for a stream it left empty. The code's own
 * text: untrusted wherever it is shown.
 */
export type PrintedOutput = { stdout: string; stderr: string };

/**
 * A call worked out and not started (`CodeSandbox.prepare`): `start` does what `call` would have done.
 * `printed`: set by the sandbox before `start`'s promise resolves with the call's value, when the call
 * printed anything (a call that failed carries its output in its error instead).
 */
export type PreparedCall = { start(): Promise<Json>; printed?: PrintedOutput };

/** Runs user code out of process, with a timeout, a memory limit and a clean environment. */
export type CodeSandbox = {
  /** `signal`: aborted when the run is asked to abort; the call is dropped, its worker killed if it runs */
  call(call: CodeCall, opts?: CallOptions): Promise<Json>;
  /**
   * A call worked out now — its checks, the request it will send — and started only by `start`:
   * nothing reaches a worker before then, and a call never started costs nothing more. For a caller
   * that must not start it yet and would rather spend the wait on it (the kernel: while the commit
   * before an effectful step travels). Optional: without it, the caller `call`s when it may start.
   */
  prepare?(call: CodeCall, opts?: CallOptions): PreparedCall;
  /**
   * Starts a worker for this code now, if none is up, so that its first call does not wait for one
   * (a resume, while it reads the log). A hint: it may do nothing, and never fails.
   */
  warm?(target: CodeWarmUp): void;
  close(): Promise<void>;
};

// ---------------------------------------------------------------- workspace files
/**
 * `file/read` and `file/write` on the run's workspace, done by the host. The workspace is written by
 * the run's code too, so an implementation must never follow what code made there (links, FIFOs) and
 * must bound its own time; failures are StepFailedErrors that say why.
 */
export type WorkspaceFiles = {
  /** the text of a file of the workspace (else of the bundle's own files) */
  read(path: string): Promise<string>;
  write(path: string, content: string): Promise<{ bytes: number }>;
};

// ---------------------------------------------------------------- records
/**
 * `queued`: recorded (its row, run_started and the snapshot at the entry) but not driven yet; it
 * waits for a driver — the app's admission (STAGECRAFT_MAX_RUNS at once) or a `stagecraft worker` —
 * whose resume records `run_admitted` and makes it `running`.
 */
export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'aborted'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * What a run is: `run` (started from a skill; a `run_skill` child too, whose parent is its caller),
 * `replay` (its parent's recording re-executed against a skill version, recording.ts) or `fork`
 * (its parent's steps up to the fork point answered from the recording, then live).
 */
export const RUN_KINDS = ['run', 'replay', 'fork'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

export type RunRecord = {
  id: string;
  skillName: string;
  skillHash: string;
  /** the skill.md text the run was started with (so a run can be resumed or replayed without the bundle) */
  skillText: string;
  bundleDir: string;
  /** lib/store may link this to a stored skill version */
  skillVersionId: string | null;
  input: JsonObject;
  model: string;
  status: RunStatus;
  output: Json | null;
  error: JsonObject | null;
  report: JsonObject | null;
  kind: RunKind;
  /** the run it derives from: the replayed or forked run, or the caller of a `run_skill` child */
  parentRunId: string | null;
  /** a fork's fork point (`draft/r2/model`, `__post__/3/input`, a phase start, `input`), else null */
  forkPoint: string | null;
  createdAt: number;
  updatedAt: number;
};

export type RunEvent = {
  runId: string;
  /** 1, 2, 3 … per run, no gaps */
  seq: number;
  type: string;
  at: number;
  data: JsonObject;
};

export type TraceStatus = 'ok' | 'failed' | 'refused' | 'skipped';

export type StageTrace = {
  id: string;
  runId: string;
  /** the seq of the event that recorded it */
  seq: number;
  round: number;
  /** the skill phase */
  phase: string;
  rung: Rung;
  capability: string;
  stage: string;
  status: TraceStatus;
  effects: { asked: string[]; granted: string[]; missing: string[] };
  /** what the handler returned (summarised when large) */
  contribution: Json | null;
  /** parts of the contribution not applied, with why */
  notApplied: JsonObject[];
  error: { message: string; stack: string | null } | null;
  startedAt: number;
  endedAt: number;
  durationMs: number;
};

export type Snapshot = {
  runId: string;
  /** a phase name, or `__post__` while the postprocessor runs */
  currentPhase: string;
  /** the last seq the snapshot reflects */
  seq: number;
  /** what resume needs: the phase input, the finish artifact path, ... */
  data: JsonObject;
};

export type WorkspaceArtifact = {
  runId: string;
  path: string;
  /** the JSON value or text */
  content: Json;
  sha256: string;
  size: number;
  createdAt: number;
};

/** The recorded result of one memoized step (from its `step_completed` event). */
export type MemoEntry = {
  seq: number;
  /** position of the step in the run, e.g. `draft/r2/model`, `__post__/1` */
  position: string;
  /** hash of (phase, position, definition, input) */
  key: string;
  /** hash of the definition alone: a mismatch at the same position is a determinism error */
  defHash: string;
  definition: Json;
  kind: string;
  status: string;
  output: Json;
};

/** What moves together: the events, their traces, the snapshot move and artifacts, in one transaction. */
export type CommitUnit = {
  events: RunEvent[];
  traces?: StageTrace[];
  /** a new snapshot, or `delete` (abort / completion) */
  snapshot?: Snapshot | 'delete';
  artifacts?: WorkspaceArtifact[];
  run?: Partial<Pick<RunRecord, 'status' | 'output' | 'error' | 'report' | 'updatedAt'>>;
  /**
   * Everything in the unit is re-derived by a resume that re-runs pure work from the last
   * commit that was not lazy (journal.ts decides). The store may acknowledge it before it is
   * on disk: a crash of the database itself may lose it, a crash of the caller never may (a
   * store that cannot promise that, like the embedded one, writes it as any other). A later
   * commit that is not lazy makes it durable too.
   */
  lazy?: boolean;
};

export type CommitResult =
  | { kind: 'committed' }
  /** another writer already holds these seqs: the recorded events are returned, not an error */
  | { kind: 'conflict'; recorded: RunEvent[] };

export type RunFilter = {
  status?: RunStatus[];
  skillName?: string;
  kind?: RunKind[];
  parentRunId?: string;
  limit?: number;
  /** runs whose id starts with this (a run's `run_skill` descendants: `<root id>.`) */
  idPrefix?: string;
};

/**
 * A request to abort a run, recorded by whoever asks (the app, `stagecraft abort`) and honoured by
 * whoever drives the run — at once, cutting short the step in flight — or takes it up next: the
 * run ends `aborted` on request, never resumed. The first request of a run is the one kept.
 */
export type AbortRequest = {
  runId: string;
  reason: string;
  /** who asked, as the run's report names them (`cli (user dana)`, `the app`) */
  requestedBy: string;
  /** where the request came from (app, cli), when it said */
  via: string | null;
  requestedAt: number;
};

/** A claim on a run: only its holder drives the run. */
export type RunClaim = { release(): Promise<void> };

export type StorePort = {
  createRun(run: RunRecord, first: CommitUnit): Promise<void>;
  /** commits atomically; a `(runId, seq)` that exists yields `conflict` with what is recorded */
  commit(runId: string, unit: CommitUnit): Promise<CommitResult>;
  /** exclusive claim on driving a run; null when another holder has it */
  claimRun(runId: string): Promise<RunClaim | null>;
  /**
   * Whether this process holds the run's claim now (it drives the run: a resume here would be a
   * no-op). Only this process's claims: one another process holds answers false. A store may leave it out.
   */
  holdsClaim?(runId: string): boolean;
  getRun(runId: string): Promise<RunRecord | null>;
  /**
   * The run's status alone (null: no such run), its payloads left unread: for a caller that only
   * asks whether the run exists or has ended, where getRun would read and parse its input, output
   * and report (a 16 MB output: a second of the embedded store's thread). A store may leave it out
   * (lib/server/runs/run-status.ts asks getRun then).
   */
  getRunStatus?(runId: string): Promise<RunStatus | null>;
  listRuns(filter?: RunFilter): Promise<RunRecord[]>;
  /** how many runs `listRuns(filter)` would list, without its limit */
  countRuns(filter?: RunFilter): Promise<number>;
  /** the events after `afterSeq` (default 0: all), in seq order, at most `limit` of them (default: no limit) */
  readEvents(runId: string, afterSeq?: number, limit?: number): Promise<RunEvent[]>;
  readTraces(runId: string): Promise<StageTrace[]>;
  readMemo(runId: string): Promise<MemoEntry[]>;
  readSnapshot(runId: string): Promise<Snapshot | null>;
  /**
   * Records a request to abort the run (RunNotFoundError for an unknown one). The first request
   * stays: asking again returns it unchanged.
   */
  requestAbort(req: AbortRequest): Promise<AbortRequest>;
  readAbortRequest(runId: string): Promise<AbortRequest | null>;
  /**
   * Hear promptly of an abort request for `runId`, recorded by this process or any other (a store
   * shared by processes polls for them, all watched runs in one query). `fn` is called at most
   * once; a request recorded before the watch began is heard too. Returns the function that stops watching.
   */
  watchAbortRequest(runId: string, fn: (req: AbortRequest) => void): () => void;
  /** runs that have a snapshot (interrupted, not aborted, not finished) */
  listResumable(): Promise<string[]>;
  readArtifact(runId: string, path: string): Promise<WorkspaceArtifact | null>;
  /**
   * Hear of the events this process appends, once they are committed: `fn(runId, lastSeq)`. Only
   * this process's writes (a run driven by another process is seen by polling readEvents). The
   * kernel never calls it; a store may leave it out. Returns the function that stops listening.
   */
  onAppend?(fn: (runId: string, lastSeq: number) => void): () => void;
  listArtifacts(runId: string): Promise<WorkspaceArtifact[]>;
  close(): Promise<void>;
};
