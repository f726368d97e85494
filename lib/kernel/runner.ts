/**
 * Runs a skill: starts a run or resumes one, moves through the phases of the
 * graph, persists the finish artifact before the postprocessor, runs the
 * postprocessor as the pseudo-phase `__post__`, and ends the run as
 * completed, failed or aborted.
 *
 * A run may also be recorded `queued` (queueRun) and driven later: its
 * admission is a resume that records `run_admitted` and sets it `running`.
 *
 * Resume reads the snapshot and jumps to its phase (straight to the
 * postprocessor for `__post__`); steps recorded in the log are answered from
 * the memo, and a recorded step the skill no longer has (changed, or a chain
 * cut short) stops the resume with a DeterminismError. An abort deletes the
 * snapshot: an aborted run is never resumed. Resuming a completed run answers
 * its recorded outcome.
 * A run driven by another process (claim taken, or its seq written first)
 * stops cleanly with status `superseded` and writes nothing. A driver told to
 * let go (`deps.signal`) stops between two steps, `released`; run_started,
 * run_admitted and run_resumed record who drives (`deps.driver`).
 *
 * A user may ask for a run to be aborted while it is driven (`abortRun`
 * records the request in the store when another holds the claim): its driver
 * watches for it, cuts the step in flight short and ends the run aborted on
 * request, in one commit, with who asked and why; nothing runs after it. A
 * driver that died leaves the request to whoever resumes the run next, which
 * ends it aborted instead of resuming it.
 *
 * A replay or a fork is a run like any other, with a derivation: its
 * parent's log as a second memo and a policy (recording.ts), recorded in its
 * first event so that a resume derives it the same way. A replay that cannot
 * go on ends aborted.
 *
 * Owns: the run lifecycle and the snapshot. Does not: run rounds
 * (phase-runner.ts) or processor steps (processors.ts).
 */
import {
  AbortRequestedError,
  DeterminismError,
  ReplayDivergedError,
  skillChangedAdvice,
  RunClaimedError,
  RunExistsError,
  RunFinishedError,
  RunNotFoundError,
  RunNotResumableError,
  RecordRefusedError,
  RunReleasedError,
  StoreUnavailableError,
  SandboxHostLostError,
  StoreWriteError,
  WorkflowAbortedError,
  errorToJson,
} from './errors';
import { EVENT, type AbortCause, type CutShort, type ProgramStage, type RunAdmittedData, type RunResumedData, type RunStartedData } from './events';
import { Evidence } from './evidence';
import type { Json, JsonObject } from './json';
import { isJsonObject } from './json';
import { POST_PHASE, type Plan, type StepSpec } from './plan';
import type { AbortRequest, CommitResult, CommitUnit, RunClaim, RunEvent, RunKind, RunRecord, RunStatus, Snapshot } from './ports';
import type { KernelDeps, RunContext } from './context';
import { Journal } from './journal';
import { NO_FAULTS, SimulatedCrash } from './faults';
import { memoEntryOf } from './memo';
import { appendOnce, markersOf } from './markers';
import { requireNoStepRecordedPast, runChain } from './processors';
import { frameRef, runPhaseVisit } from './phase-runner';
import { requireRecordedStagesInPlan } from './stages';
import { checkSchema, formatSchemaErrors } from './schema-check';
import { deriveReport, type RunReport } from './report';
import { makeArtifact } from './ops/execute';
import { rememberChars } from './value-size';
import { atForkInput, ForkProbeReached, markForkPoint, pendingForkPoint, recordingOf, type Derivation } from './recording';
import { objectCheck, RUN_INPUT_POINT, type ForkPoint } from './fork-edits';

/** where the finish artifact is kept, durable, before the postprocessor starts (a reserved path: ops cannot write it) */
export const FINISH_ARTIFACT_PATH = '.stagecraft/finish.json';

export type RunOutcome = {
  runId: string;
  /** `superseded`: another process drives the run; `released`: this one let go of it (deps.signal) and it stays resumable */
  status: RunStatus | 'superseded' | 'released';
  output: Json | null;
  error: JsonObject | null;
  report: RunReport | null;
};

/** An abort asked of a run another process drives: recorded, for its driver to honour (runner.ts) */
export type AbortPending = { runId: string; status: 'aborting'; request: AbortRequest };

export type StartOptions = {
  input: JsonObject;
  skillText: string;
  skillVersionId?: string | null;
  parentRunId?: string | null;
  runId?: string;
  /** where the bundle came from, recorded on the run (default: the plan's bundle folder, where it runs from) */
  bundleDir?: string;
  /** told once the run is recorded (its row and first event committed), before it goes on: a caller may answer with the id then */
  onCreated?: (runId: string) => void;
  /** `replay` / `fork`: how the run derives from its parent (recording.ts); default: a plain run */
  derivation?: Derivation;
  /** how the fork point is shown and recorded (default: the point's position) */
  forkPoint?: string;
};

type SnapshotData = { phaseInput: JsonObject; visits: Record<string, number> };

/** The record of a new run and its first unit (run_started, the snapshot at the entry phase). */
function newRun(plan: Plan, deps: Pick<KernelDeps, 'clock' | 'ids' | 'model' | 'driver'>, opts: StartOptions, status: 'running' | 'queued'): { record: RunRecord; first: CommitUnit } {
  const runId = opts.runId ?? deps.ids.newId('run');
  const now = deps.clock.now();
  const derived = opts.derivation ?? null;
  const kind: RunKind = derived?.mode ?? 'run';
  const point = derived?.point ?? null;
  const forkPoint = kind === 'fork' && point ? (opts.forkPoint ?? point.at) : null;
  const parentRunId = derived?.parentRunId ?? opts.parentRunId ?? null;
  const record: RunRecord = {
    id: runId,
    skillName: plan.name,
    skillHash: plan.skillHash,
    skillText: opts.skillText,
    bundleDir: opts.bundleDir ?? plan.bundleDir,
    skillVersionId: opts.skillVersionId ?? null,
    input: opts.input,
    model: deps.model.name,
    status,
    output: null,
    error: null,
    report: null,
    kind,
    parentRunId,
    forkPoint,
    createdAt: now,
    updatedAt: now,
  };
  const started: RunEvent = {
    runId,
    seq: 1,
    type: EVENT.runStarted,
    at: now,
    data: {
      skill: plan.name,
      skillHash: plan.skillHash,
      model: deps.model.name,
      input: opts.input,
      parentRunId,
      ...(kind !== 'run' ? { kind } : {}),
      // a resume (or a replay of this fork) re-applies the same point and edit
      ...(point ? { forkPoint, fork: point as unknown as JsonObject } : {}),
      entry: plan.entry,
      bundleDir: plan.bundleDir,
      stages: programOf(plan),
      // a queued run's start only records it: its admission names who drives it
      ...(status === 'queued' ? { queued: true } : driverOf(deps)),
    } satisfies RunStartedData as unknown as JsonObject,
  };
  const snapshot: Snapshot = { runId, currentPhase: plan.entry, seq: 1, data: { phaseInput: opts.input, visits: {} } };
  return { record, first: { events: [started], snapshot } };
}

export async function startRun(plan: Plan, deps: KernelDeps, opts: StartOptions): Promise<RunOutcome> {
  const { record, first } = newRun(plan, deps, opts, 'running');
  const runId = record.id;
  const [started] = first.events;
  const snapshot = first.snapshot as Snapshot;
  if (opts.runId && (await deps.store.getRun(runId))) {
    throw new RunExistsError(runId);
  }
  // a caller waiting for the run to be recorded (onCreated: the app answers with its id then) has it
  // recorded at once; any other run is recorded with its first commit (journal.ts deferCreation)
  if (!opts.onCreated) return startDeferred(plan, deps, record, first, opts.derivation ?? null);
  // the claim and the run row are independent round trips: take them together
  const [claimed, created] = await Promise.allSettled([deps.store.claimRun(runId), deps.store.createRun(record, first)]);
  const claim = claimed.status === 'fulfilled' ? claimed.value : null;
  try {
    if (created.status === 'rejected') throw created.reason;
    opts.onCreated(runId);
    if (claimed.status === 'rejected') throw claimed.reason;
    // a caller-chosen id another process holds: it drives the run, not us
    if (!claim) return { runId, status: 'superseded', output: null, error: null, report: null };
    return await drive(plan, deps, runId, [started], snapshot, opts.derivation ?? null);
  } finally {
    // the run is over (its last commit is in): letting go of the claim need not delay the caller
    void claim?.release().catch(() => undefined);
  }
}

/**
 * A run recorded with its first commit: its row, `run_started` and the entry snapshot travel with
 * the events of its first flush — the one before a step that may act on the world at the latest —
 * and its claim in the same statement, so a run starting with a model turn and a finish costs one
 * commit fewer. A unit that ends the run takes no claim: the run is over before anyone can see it.
 */
async function startDeferred(plan: Plan, deps: KernelDeps, record: RunRecord, first: CommitUnit, derivation: Derivation | null): Promise<RunOutcome> {
  const runId = record.id;
  let claim: RunClaim | null = null;
  const create = async (unit: CommitUnit): Promise<CommitResult> => {
    const ends = unit.run?.status !== undefined && !isUnfinished(unit.run.status);
    const [claimed, created] = await Promise.allSettled([ends ? Promise.resolve(null) : deps.store.claimRun(runId), deps.store.createRun(record, unit)]);
    if (claimed.status === 'fulfilled') claim = claimed.value;
    if (created.status === 'rejected') throw created.reason;
    if (claimed.status === 'rejected') throw claimed.reason;
    // the run is ours (a fresh id, or one checked free): only another process holding the same id can be here first
    if (!ends && !claim) return { kind: 'conflict', recorded: await deps.store.readEvents(runId, 0, unit.events.length) };
    return { kind: 'committed' };
  };
  try {
    return await drive(plan, deps, runId, [...first.events], first.snapshot as Snapshot, derivation, (journal) => journal.deferCreation(first, create));
  } finally {
    void (claim as RunClaim | null)?.release().catch(() => undefined);
  }
}

/**
 * Records a run that is not driven yet (`queued`): its row, run_started and the snapshot at the
 * entry phase, exactly as a start records them. Whoever admits it later drives it with
 * `resumeRun`, which records `run_admitted` and sets it `running`; until then it is resumable
 * like any interrupted run, so a restart picks it up.
 */
export async function queueRun(plan: Plan, deps: Pick<KernelDeps, 'store' | 'clock' | 'ids' | 'model'>, opts: StartOptions): Promise<string> {
  const { record, first } = newRun(plan, deps, opts, 'queued');
  if (opts.runId && (await deps.store.getRun(record.id))) throw new RunExistsError(record.id);
  await deps.store.createRun(record, first);
  return record.id;
}

/**
 * Resuming a completed run is idempotent: it answers the recorded outcome, as for any caller
 * asking twice (null for a run that is not completed). A failed or aborted run is not resumed.
 */
export function completedOutcome(run: RunRecord): RunOutcome | null {
  if (run.status !== 'completed') return null;
  return { runId: run.id, status: 'completed', output: run.output, error: null, report: run.report as RunReport | null };
}

/** A run that has ended other than completed, as a resume of it says it: it is never resumed. */
export function endedNotResumable(runId: string, status: string): RunNotResumableError {
  return new RunNotResumableError(runId, `it is ${status}${status === 'aborted' ? ' (an aborted run is never resumed)' : ''}`);
}

/**
 * `derivation`: for a replay or a fork, its parent's recording (default: read from the store, as the
 * run's first event names it).
 */
export async function resumeRun(
  runId: string,
  planFor: (run: RunRecord) => Plan | Promise<Plan>,
  deps: KernelDeps,
  opts: { derivation?: Derivation } = {},
): Promise<RunOutcome> {
  const run = await deps.store.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  const claim = await deps.store.claimRun(runId);
  if (!claim) return { runId, status: 'superseded', output: null, error: null, report: null };
  try {
    // read together, under the claim: nobody else writes the run now
    const [snapshot, log] = await Promise.all([deps.store.readSnapshot(runId), deps.store.readEvents(runId)]);
    if (!snapshot) {
      // read again: another process (or the parent of a child run) may have finished it since
      const now = (await deps.store.getRun(runId)) ?? run;
      const done = completedOutcome(now);
      if (done) return done;
      if (isUnfinished(now.status)) throw new RunNotResumableError(runId, 'it has no snapshot');
      throw endedNotResumable(runId, now.status);
    }
    // asked to abort while nobody drove it (its driver died): the run ends as asked, it does not go on
    const request = await deps.store.readAbortRequest(runId);
    if (request) return await endAsRequested(runId, deps, request, snapshot.currentPhase);
    const plan = await planFor(run);
    warmCode(deps, plan, snapshot);
    const at = deps.clock.now();
    // a queued run starts here; any other is taken up again where it stopped. Either way the event
    // names who drives it from here (deps.driver). Read again under the claim: a queued run may have
    // been admitted by its previous holder since
    const isAdmission = run.status === 'queued' && (await deps.store.getRun(runId))?.status === 'queued';
    // the skill text this execution runs (a folder resumed after an edit says so in its log), and its stage program
    const ran = { skillHash: plan.skillHash, bundleDir: plan.bundleDir, stages: programOf(plan), ...driverOf(deps) };
    const resumed: RunEvent = isAdmission
      ? { runId, seq: log.length + 1, type: EVENT.runAdmitted, at, data: { waitedMs: Math.max(0, at - run.createdAt), ...ran } satisfies RunAdmittedData as unknown as JsonObject }
      : { runId, seq: log.length + 1, type: EVENT.runResumed, at, data: { fromSeq: log.length, currentPhase: snapshot.currentPhase, ...ran } satisfies RunResumedData as unknown as JsonObject };
    const r = await deps.store.commit(runId, { events: [resumed], ...(isAdmission ? { run: { status: 'running', updatedAt: at } } : {}) });
    if (r.kind === 'conflict') return { runId, status: 'superseded', output: null, error: null, report: null };
    const derivation = opts.derivation ?? (await derivationOf(deps, run, log));
    return await drive(plan, deps, runId, [...log, resumed], snapshot, derivation);
  } finally {
    await claim.release();
  }
}

/**
 * The sandbox starts a worker for the first code step of the chain a resume re-enters (the
 * postprocessor, or the phase's preprocessor) while the resume reads the log and answers the
 * recorded steps: its first new step then does not wait for a cold worker.
 */
function warmCode(deps: KernelDeps, plan: Plan, snapshot: Snapshot): void {
  if (!deps.sandbox.warm) return;
  const chain = snapshot.currentPhase === POST_PHASE ? plan.postprocessor : plan.phases[snapshot.currentPhase]?.preprocessor;
  const first = (steps: readonly StepSpec[]): StepSpec | undefined => {
    for (const s of steps) {
      const found = s.type === 'iterate' ? first(s.steps) : s.type === 'node' || s.type === 'python' ? s : undefined;
      if (found) return found;
    }
    return undefined;
  };
  const code = first(chain?.steps ?? []);
  if (code && (code.type === 'node' || code.type === 'python')) deps.sandbox.warm({ language: code.type, modulePath: code.modulePath });
}

/** what `run_started` and `run_resumed` say about the process driving the run (deps.driver) */
function driverOf(deps: Pick<KernelDeps, 'driver'>): { driver?: JsonObject } {
  return deps.driver ? { driver: deps.driver } : {};
}

/** A replay's or a fork's recording, from its first event and its parent's log. */
async function derivationOf(deps: KernelDeps, run: RunRecord, log: readonly RunEvent[]): Promise<Derivation | null> {
  if (run.kind === 'run' || !run.parentRunId) return null;
  const point = (log[0]?.data.fork ?? null) as ForkPoint | null;
  return { mode: run.kind, parentRunId: run.parentRunId, events: await deps.store.readEvents(run.parentRunId), point };
}

/**
 * Ends a run as aborted, on request (a run nobody wants finished, one whose skill changed under
 * it): the request is recorded in the store first, with who asked and why. When no process drives
 * the run, this one takes its claim and ends it at once: the `run_aborted` event, the run's status
 * and the snapshot's deletion in one commit, as any abort; it is then never resumed. When another
 * process drives it (the app, a CLI run, a worker), the answer is `aborting`: that driver hears of
 * the request within moments, cuts its step in flight short and ends the run the same way; if it
 * dies first, whoever resumes the run ends it instead. Its error says it was asked for
 * (`requestedBy: "user"`, and `via` where the request came from), so an abort a user wanted is
 * never mistaken for one a failing step caused. The first request of a run is the one honoured.
 */
export async function abortRun(
  runId: string,
  reason: string,
  deps: Pick<KernelDeps, 'store' | 'clock' | 'faults'>,
  /** `via`: where the request came from (app, cli); `requestedBy`: who asked (`cli (user dana)`), both recorded with the abort */
  opts: { via?: string; requestedBy?: string } = {},
): Promise<RunOutcome | AbortPending> {
  const run = await deps.store.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  if (!isUnfinished(run.status)) throw new RunFinishedError(runId, run.status);
  const request = await deps.store.requestAbort({
    runId,
    reason,
    requestedBy: opts.requestedBy ?? opts.via ?? 'a caller that did not say',
    via: opts.via ?? null,
    requestedAt: deps.clock.now(),
  });
  const claim = await deps.store.claimRun(runId);
  if (!claim) return { runId, status: 'aborting', request };
  try {
    const now = (await deps.store.getRun(runId)) ?? run;
    // its driver ended it on this request just before we took the claim
    if (now.status === 'aborted') return { runId, status: 'aborted', output: null, error: now.error, report: now.report as RunReport | null };
    if (!isUnfinished(now.status)) throw new RunFinishedError(runId, now.status);
    return await endAsRequested(runId, deps, request, (await deps.store.readSnapshot(runId))?.currentPhase).catch(async (e) => {
      // its driver ended it on this request while we did: a driver lets go of its claim in the statement of
      // the run's last commit (Postgres: the advisory lock is unlocked at once, the commit seen a moment
      // later), so we could take the claim and read the run as running. Its end is this abort landing
      const after = e instanceof RunClaimedError ? await deps.store.getRun(runId) : null;
      if (after?.status !== 'aborted') throw e;
      return { runId, status: 'aborted' as const, output: null, error: after.error, report: after.report as RunReport | null };
    });
  } finally {
    await claim.release();
  }
}

/** Ends a run no process drives (the caller holds its claim) as aborted on `request`. */
async function endAsRequested(runId: string, deps: Pick<KernelDeps, 'store' | 'clock' | 'faults'>, request: AbortRequest, phase: string | undefined): Promise<RunOutcome> {
  const log = await deps.store.readEvents(runId);
  const journal = new Journal(runId, deps.store, deps.clock, deps.faults ?? NO_FAULTS, log.length);
  return endOnRequest({ runId, journal, deps, log }, request, phase);
}

/** The end of a run a user asked to abort: its error and its abort cause say who asked and why. */
function endOnRequest(ctx: Parameters<typeof end>[0] & { cutShort?: CutShort }, request: AbortRequest, phase: string | undefined): Promise<RunOutcome> {
  const error: JsonObject = {
    ...errorToJson(new WorkflowAbortedError(`aborted on request: ${request.reason}`, { phase })),
    requestedBy: 'user',
    ...(request.via ? { via: request.via } : {}),
    // the step in flight when the request came: a step is recorded when it ends, so nothing else says it
    ...(ctx.cutShort ? { cutShort: ctx.cutShort } : {}),
  };
  return end(ctx, 'aborted', null, error, { by: 'request', reason: request.reason, requestedBy: request.requestedBy });
}

/** A run that has not ended: driven (`running`) or waiting its turn (`queued`). */
export function isUnfinished(status: RunStatus): boolean {
  return status === 'running' || status === 'queued';
}

async function drive(
  plan: Plan,
  deps: KernelDeps,
  runId: string,
  log: RunEvent[],
  snapshot: Snapshot,
  derivation: Derivation | null = null,
  setUp?: (journal: Journal) => void,
): Promise<RunOutcome> {
  const faults = deps.faults ?? NO_FAULTS;
  const journal = new Journal(runId, deps.store, deps.clock, faults, log.length);
  setUp?.(journal);
  const memo = new Map(log.map(memoEntryOf).filter((m) => m !== null).map((m) => [m!.position, m!]));
  const ctx: RunContext = {
    plan,
    deps,
    runId,
    journal,
    memo,
    log,
    evidence: Evidence.fromLog(log),
    frames: framesOf(log),
    faults,
    markers: markersOf(log),
    currentVisit: '',
    recording: derivation ? recordingOf(derivation, log) : null,
    failedAt: null,
  };
  // a user's abort request, heard from the store (this process's or another's): cuts the step in flight short
  const cancel = new AbortController();
  const abort: NonNullable<RunContext['abort']> = { request: null, signal: cancel.signal };
  ctx.abort = abort;
  const stopWatching = deps.store.watchAbortRequest(runId, (request) => {
    abort.request = request;
    cancel.abort(new AbortRequestedError(runId, request.reason));
  });
  try {
    // a fork of the run input departs at once: nothing of the parent is answered
    if (ctx.recording?.point?.at === RUN_INPUT_POINT) await markForkPoint(ctx, ctx.recording.input, (ctx.recording.point.value ?? null) as Json);
    if (snapshot.currentPhase !== POST_PHASE) requireRecordedStagesInPlan(ctx, resumePrefix(snapshot));
    const finish = snapshot.currentPhase === POST_PHASE ? await loadFinish(ctx) : await runPhases(ctx, snapshot);
    const output = await runPostprocessor(ctx, finish);
    return await end(ctx, 'completed', output, null);
  } catch (caught) {
    if (caught instanceof SimulatedCrash || caught instanceof ForkProbeReached) throw caught;
    // a lazy commit still in flight (journal.ts) failed before whatever failed since: the run stops for its failure, as at its own flush
    // (waited for only when there is one: an abort asked in this process ends the run within the same ticks as before)
    const err = (ctx.journal.isInFlight ? await ctx.journal.inFlightError() : null) ?? caught;
    if (err instanceof SimulatedCrash) throw err;
    if (err instanceof RunClaimedError) return { runId, status: 'superseded', output: null, error: null, report: null };
    // asked to abort: whatever the step cut short threw, the run ends as the user asked (a store
    // that cannot record it leaves the request for whoever resumes the run)
    if (abort.request && !(err instanceof StoreWriteError || err instanceof StoreUnavailableError)) {
      return await endOnRequest(ctx, abort.request, ctx.currentVisit.replace(/#\d+$/, '') || undefined);
    }
    if (err instanceof RunReleasedError) {
      // what ran before the stop is pure or committed already; recording it spares the next driver a re-run
      await ctx.journal.flush(true).catch(() => undefined);
      return { runId, status: 'released', output: null, error: null, report: null };
    }
    // a determinism error stops the resume and leaves the run as it was; so does a store that
    // stopped recording or cannot be reached (the run is resumable from its last commit once it is back),
    // and a code worker lost with the sandbox's spawner (resumable at once: the app resumes it)
    if (err instanceof DeterminismError || err instanceof StoreWriteError || err instanceof StoreUnavailableError || err instanceof SandboxHostLostError) throw err;
    const error = errorToJson(err);
    // where a step that records nothing failed (a model call): what a rerun starts from, what a replay reproduces
    if (ctx.failedAt !== null && error.position === undefined) error.position = ctx.failedAt;
    // a replay that cannot go on was stopped, as an abort is: nothing in the skill failed
    const isAbort = err instanceof WorkflowAbortedError || err instanceof ReplayDivergedError;
    try {
      return await end(ctx, isAbort ? 'aborted' : 'failed', null, error, err instanceof WorkflowAbortedError ? abortCauseOf(err) : undefined);
    } catch (e) {
      // the failure's own record refused (its message quoting what the store could not keep): the bare fact, so the run is never left running
      if (!(e instanceof RecordRefusedError)) throw e;
      return await end(ctx, 'failed', null, { code: e.code, message: 'The run failed, and what it produced could not be recorded by the store (the full error could not be recorded either).' });
    }
  } finally {
    // no commit of the run is left in flight when its driver returns (its claim is let go next)
    if (ctx.journal.isInFlight) await ctx.journal.inFlightError();
    stopWatching();
    // whatever a step cut short still does (an abandoned branch of it) can record nothing more
    if (abort.request) ctx.journal.seal(new AbortRequestedError(runId, abort.request.reason));
  }
}

async function runPhases(ctx: RunContext, snapshot: Snapshot): Promise<JsonObject> {
  const data = snapshot.data as unknown as SnapshotData;
  const visits: Record<string, number> = { ...(data.visits ?? {}) };
  let phaseName: string = snapshot.currentPhase;
  let input: JsonObject = data.phaseInput ?? {};
  for (;;) {
    const phase = ctx.plan.phases[phaseName];
    if (!phase) {
      throw new DeterminismError(
        `the run is in phase "${phaseName}", which the skill no longer has (its phases: ${ctx.plan.order.join(', ')}). ${skillChangedAdvice(ctx.runId)}`,
        { phase: phaseName },
      );
    }
    const visit = (visits[phaseName] ?? 0) + 1;
    const visitKey = visit === 1 ? phaseName : `${phaseName}#${visit}`;
    ctx.currentVisit = visitKey;
    // a fork point at this phase start: the edited input is what the phase starts from
    if (pendingForkPoint(ctx) !== null) input = await atForkInput(ctx, visitKey, input, objectCheck(`the input of phase ${phaseName}`, phase.preprocessor ? null : phase.inputSchema));
    const frame = frameRef(ctx, phase);
    if (await appendOnce(ctx, `phase:${visitKey}:started`, EVENT.phaseStarted, { phase: phaseName, visit, input, ...frame }, 'group')) ctx.frames.add(frame.frame);
    let value = input;
    if (phase.preprocessor) {
      value = await runChain(ctx, phase.preprocessor, input, { phase: phaseName, prefix: `${visitKey}/pre`, label: `phase ${phaseName} preprocessor` });
    } else {
      requireNoStepRecordedPast(ctx, `${visitKey}/pre`, 0); // the phase lost its whole preprocessor
      const errors = phase.inputSchema === null ? [] : checkSchema(phase.inputSchema, input);
      if (errors.length) {
        throw new WorkflowAbortedError(`the input of phase ${phaseName} does not satisfy its input_schema: ${formatSchemaErrors(errors)}`, { phase: phaseName });
      }
    }
    let artifact = await runPhaseVisit(ctx, phase, visit, visitKey, value);
    visits[phaseName] = visit;
    let next = nextPhase(ctx.plan, phaseName, artifact);
    if (next === null && pendingForkPoint(ctx) !== null) {
      // a fork point at the finish artifact: the edited one is persisted and post-processed
      artifact = await atForkInput(ctx, POST_PHASE, artifact, objectCheck('the finish artifact', phase.outputSchema));
      next = nextPhase(ctx.plan, phaseName, artifact);
    }
    if (next === null) {
      await appendOnce(ctx, `phase:${visitKey}:completed`, EVENT.phaseCompleted, { phase: phaseName, visit, artifact, next: null }, 'group');
      // the finish artifact is durable in the workspace before the postprocessor starts [seed]
      await appendOnce(ctx, 'finish:persisted', EVENT.artifactPersisted, { path: FINISH_ARTIFACT_PATH, phase: phaseName }, 'step', {
        artifacts: [makeArtifact(ctx, FINISH_ARTIFACT_PATH, artifact)],
        snapshot: { runId: ctx.runId, currentPhase: POST_PHASE, seq: 0, data: { finishPath: FINISH_ARTIFACT_PATH } },
      });
      // committed here, not at the postprocessor's first step: the fault point then means what it says
      await ctx.journal.flush();
      ctx.faults.hit('after-artifact-persisted');
      return artifact;
    }
    const snap: Snapshot = { runId: ctx.runId, currentPhase: next, seq: 0, data: { phaseInput: artifact, visits } as unknown as JsonObject };
    await appendOnce(ctx, `phase:${visitKey}:completed`, EVENT.phaseCompleted, { phase: phaseName, visit, artifact, next }, 'step', { snapshot: snap });
    phaseName = next;
    input = artifact;
  }
}

function nextPhase(plan: Plan, phaseName: string, artifact: JsonObject): string | null {
  const succ = plan.phases[phaseName].successors;
  if (succ.length === 0) return null;
  if (succ.length === 1) return succ[0];
  const n = artifact.next;
  if (typeof n === 'string' && succ.includes(n)) return n;
  throw new WorkflowAbortedError(`phase ${phaseName} must choose its successor in "next" (one of ${succ.join(', ')}); got ${JSON.stringify(n ?? null)}`, {
    phase: phaseName,
  });
}

async function loadFinish(ctx: RunContext): Promise<JsonObject> {
  await ctx.journal.flush();
  const a = await ctx.deps.store.readArtifact(ctx.runId, FINISH_ARTIFACT_PATH);
  if (!a || !isJsonObject(a.content)) throw new RunNotResumableError(ctx.runId, 'its snapshot says __post__ but the finish artifact is missing from the workspace');
  return a.content;
}

async function runPostprocessor(ctx: RunContext, finish: JsonObject): Promise<JsonObject> {
  ctx.currentVisit = POST_PHASE;
  // the finish artifact is durable before the postprocessor starts [seed]
  await ctx.journal.beforeStep(false);
  ctx.faults.hit('before-postprocessor');
  if (ctx.plan.postprocessor) {
    return runChain(ctx, ctx.plan.postprocessor, finish, { phase: POST_PHASE, prefix: POST_PHASE, label: 'postprocessor' });
  }
  requireNoStepRecordedPast(ctx, POST_PHASE, 0); // the skill lost its whole postprocessor
  const errors = checkSchema(ctx.plan.callerContract, finish);
  if (errors.length) throw new WorkflowAbortedError(`the caller artifact does not satisfy the caller contract: ${formatSchemaErrors(errors)}`, { phase: POST_PHASE });
  return finish;
}

async function end(
  ctx: Pick<RunContext, 'runId' | 'journal' | 'log'> & { deps: Pick<KernelDeps, 'clock'> },
  status: RunStatus,
  output: Json | null,
  error: JsonObject | null,
  abort?: AbortCause,
): Promise<RunOutcome> {
  const type = status === 'completed' ? EVENT.runCompleted : status === 'aborted' ? EVENT.runAborted : EVENT.runFailed;
  // events the store refused (RecordRefusedError) are not in the log: the report is of what is
  if (ctx.log.length && ctx.log[ctx.log.length - 1].seq > ctx.journal.lastSeq) ctx.log.splice(ctx.log.findIndex((e) => e.seq > ctx.journal.lastSeq));
  const cause: { abort?: AbortCause } = abort ? { abort } : {};
  const provisional: RunEvent = { runId: ctx.runId, seq: ctx.journal.lastSeq + 1, type, at: ctx.deps.clock.now(), data: { output, error, ...cause } as JsonObject };
  const report = deriveReport([...ctx.log, provisional]);
  // the event and the run row both carry the output and the report: each is measured once (journal.ts unitChars)
  rememberChars(report);
  if (typeof output === 'object' && output !== null) rememberChars(output);
  // every end is on disk before the caller hears of it. A failure or an abort may not be reached
  // again (a model error, a timeout). A completion could be recomputed from what is durable, but
  // only by a resume, and nothing asks for one once the caller has acted on the answer: a worker
  // settles the run's queue job on it, so a completion lost to a database crash left the run
  // `running` with no job to drive it (found by the restart proof, lib/queue/chaos.db.test.ts).
  const ev = await ctx.journal.append(type, { output, error, report: report as unknown as JsonObject, ...cause }, 'now', {
    snapshot: 'delete',
    run: { status, output, error, report: report as unknown as JsonObject, updatedAt: ctx.deps.clock.now() },
  });
  ctx.log.push(ev);
  return { runId: ctx.runId, status, output, error, report };
}

/** the position prefix the resumed execution re-enters (its steps are replayed, so not pre-loaded) */
function resumePrefix(snapshot: Snapshot): string {
  if (snapshot.currentPhase === POST_PHASE) return `${POST_PHASE}/`;
  const visits = (snapshot.data as unknown as SnapshotData).visits ?? {};
  const visit = (visits[snapshot.currentPhase] ?? 0) + 1;
  return `${visit === 1 ? snapshot.currentPhase : `${snapshot.currentPhase}#${visit}`}/`;
}

/** the stage program as the log names it: a reader then knows the stages that did not run, and why */
function programOf(plan: Plan): ProgramStage[] {
  return plan.stageProgram.map((s) => ({ name: s.name, capability: s.capability, rung: s.rung, effects: s.effects, ...(s.line ? { line: s.line } : {}) }));
}

/** hashes of the request frames the log already holds (each is recorded once per run) */
function framesOf(log: readonly RunEvent[]): Set<string> {
  const out = new Set<string>();
  for (const e of log) if (e.data.frameValue !== undefined && typeof e.data.frame === 'string') out.add(e.data.frame);
  return out;
}

/** What ended a run as aborted: a processor step whose on_error is fail, or a contract it broke. */
function abortCauseOf(err: WorkflowAbortedError): AbortCause {
  const l = err.location;
  if (l.step !== undefined && l.position !== undefined) {
    return { by: 'step', phase: l.phase ?? '', position: l.position, index: l.step, type: l.stepType ?? '', onError: l.onError ?? 'fail' };
  }
  return { by: 'contract', phase: l.phase ?? null };
}
