/**
 * The journal of one run: the only writer of its event log.
 *
 * Owns: `seq` assignment (gap-free from 1), the commit buffer, and the
 * durability rule — an effectful step's event commits before the next step
 * starts (`'step'`, made good by `beforeStep`), a pure step's may wait in the
 * buffer and be group-committed with later ones (`'group'`), because re-running
 * a pure step after a crash is harmless. Everything an event moves (its traces, the
 * snapshot, workspace artifacts, the run row) commits in the same unit.
 *
 * A `(run, seq)` already written means another process drives this run: the
 * journal raises `RunClaimedError` and the run stops cleanly.
 *
 * Size: a unit is flushed before it would pass MAX_UNIT_CHARS of JSON, so no
 * commit grows past what one string and one statement can carry, however many
 * large outputs pure steps return in a row. A commit the store refuses for
 * what it carries (a value it cannot serialize or keep: the same write would
 * fail every time) is not a store that is away: nothing of that unit was
 * written, its seqs are given back, and `RecordRefusedError` lets the run
 * record its failure.
 *
 * A new run's record may wait for its first commit (`deferCreation`): its row, `run_started` and
 * the entry snapshot then travel in the statement of the run's first commit, whatever that is — in
 * the commit a step that may act on the world waits for (`beforeStep(true)`), so nothing acts on
 * the world before the run exists. Until then the run is in no store: a crash leaves nothing to
 * resume and nothing that ran needs resuming (pure work, a model turn whose answer was not kept).
 *
 * Pipelining: a lazy unit flushed by `append` (a full group, or one that would pass the size limit) is sent
 * without being awaited, so pure work goes on while it is written; at most one is in flight. It
 * is settled before anything that must follow it: the run's next commit (order), any step that may
 * act on the world (`beforeStep(true)`: a `conflict` answer means another process owns the run),
 * every explicit `flush`, every durable unit, and the run's end (the runner's `inFlightError`). Its failure is thrown there as it would have been at its
 * own flush; a refused value also drops what was appended after it (those seqs follow a unit that
 * is not in the log) so the run can record its failure. Losing an in-flight lazy unit to a crash
 * is what a lazy commit already allows: it holds pure work only, which a resume recomputes.
 * A step's own commit (a `step` event pending) may be sent the same way just before the next step
 * works out its memo lookup and its request (`sendAhead`): that unit is durable, and the step waits
 * for it in `beforeStep` whatever the step is, so its effect still starts after the commit.
 *
 * Does not: decide what is pure (the caller says), or read events back.
 */
import { isUnrecordableValue, RecordRefusedError, RunClaimedError, StoreWriteError } from './errors';
import type { JsonObject } from './json';
import type { EventDataMap, EventType } from './events';
import type { Faults } from './faults';
import type { Clock, CommitResult, CommitUnit, RunEvent, Snapshot, StageTrace, StorePort, WorkspaceArtifact } from './ports';
import { jsonChars, MAX_VALUE_CHARS } from './value-size';
import { knownText } from './data-text';

/**
 * - `now`: committed before append returns (the end of a run);
 * - `step`: committed before the next step starts (effectful steps, model turns, phase moves, the
 *   finish artifact) — so work between steps that is not a step (merging, contract checks, moving
 *   to the next phase, ending the run) shares the commit;
 * - `group`: may wait for a later commit (pure steps; a crash re-runs them, harmlessly);
 * - `observed`: may wait like `group`, but its unit goes to disk: a read of the world records what
 *   it saw, which a resume could not see again, so an outcome built on it must not be recomputed;
 * - `settle`: committed before append returns, like `now`, but asks for nothing on disk of its
 *   own: for an outcome a resume recomputes from what is durable. (The runner ends every run with
 *   `now`: a completion is acted on — a worker settles its queue job — so it must not be lost.)
 *
 * A unit holding only `group` and `settle` events is `lazy` (ports.ts): the store may
 * acknowledge it before its write reaches the disk, since losing it to a database crash only
 * means a resume re-runs pure steps and reaches the same result. Anything else in the unit
 * (an effectful step, a model turn, a phase move, the finish artifact, a failure) makes the
 * whole unit durable before the commit returns.
 */
export type Durability = 'now' | 'step' | 'group' | 'observed' | 'settle';

export type Attachments = {
  traces?: StageTrace[];
  snapshot?: Snapshot | 'delete';
  artifacts?: WorkspaceArtifact[];
  run?: CommitUnit['run'];
};

/** pending pure events are flushed at this size even without an effectful step */
export const GROUP_COMMIT_MAX_EVENTS = 256;
/** pending events are flushed before they would pass this much JSON (one step's output may reach MAX_VALUE_CHARS) */
export const MAX_UNIT_CHARS = MAX_VALUE_CHARS;

/**
 * Writes a new run's record with its first unit (which starts with its `run_started`): the
 * caller's create (and claim). `conflict` when another process holds the run.
 */
export type CreateRun = (unit: CommitUnit) => Promise<CommitResult>;

export class Journal {
  private nextSeq: number;
  private pending: CommitUnit = { events: [] };
  /** commits issued (for benchmarks and tests) */
  commits = 0;
  /** a `step` event is pending: flush before the next step starts */
  private isFlushDue = false;
  /** the pending unit holds an event that must be on disk when its commit returns */
  private needsDisk = false;
  /** set when a commit failed: nothing after it may be recorded out of order */
  private broken: Error | null = null;
  /** JSON characters of the pending unit, as measured by jsonChars */
  private pendingChars = 0;
  /** set when the run has ended on an abort request: nothing may be recorded after it */
  private sealed: Error | null = null;
  /**
   * The seqs of the lazy units acknowledged since the last durable one: a crash of the database
   * server may still lose them, and the run's next commit then meets a gap in its log.
   */
  private lostLazy: { from: number; to: number } | null = null;
  /** the run is not recorded yet: its first unit (run_started, the entry snapshot) waits for the first flush */
  private creation: { first: CommitUnit; create: CreateRun } | null = null;
  /** the lazy unit sent and not yet settled: its outcome, an error to throw at the next await point or null */
  private inFlight: { unit: CommitUnit; done: Promise<Error | null> } | null = null;
  /** the unit in flight was sent ahead of a step (`sendAhead`): the step waits for it, whatever it is */
  private isInFlightAhead = false;

  constructor(
    readonly runId: string,
    private readonly store: StorePort,
    private readonly clock: Clock,
    private readonly faults: Faults,
    lastSeq: number,
  ) {
    this.nextSeq = lastSeq + 1;
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /**
   * The run is not in the store yet: `first` (its `run_started`, already numbered, and the entry
   * snapshot) is written by `create` together with the first flush's events, in one commit.
   */
  deferCreation(first: CommitUnit, create: CreateRun): void {
    this.creation = { first, create };
    // what it adds to the first commit counts against the unit's size like any pending event
    for (const e of first.events) this.pendingChars += unitChars(e.data, { snapshot: first.snapshot });
  }

  /** the run's record waits for the first flush (deferCreation) */
  get isCreationPending(): boolean {
    return this.creation !== null;
  }

  /**
   * Append one event; returns it with its seq. `now` flushes everything pending with it. The data
   * is typed by the event type (events.ts), so what the kernel writes is what the views parse.
   */
  async append<T extends EventType>(type: T, data: EventDataMap[T], durability: Durability, att: Attachments = {}): Promise<RunEvent> {
    if (this.sealed) throw this.sealed;
    const json = data as unknown as JsonObject;
    const chars = unitChars(json, att);
    if (this.pending.events.length && this.pendingChars + chars > MAX_UNIT_CHARS) await this.commitPending(false, true);
    this.pendingChars += chars;
    const event: RunEvent = { runId: this.runId, seq: this.nextSeq++, type, at: this.clock.now(), data: json };
    for (const t of att.traces ?? []) t.seq = event.seq;
    const p = this.pending;
    p.events.push(event);
    if (att.traces?.length) (p.traces ??= []).push(...att.traces);
    if (att.snapshot) p.snapshot = att.snapshot === 'delete' ? 'delete' : { ...att.snapshot, seq: event.seq };
    if (att.artifacts?.length) (p.artifacts ??= []).push(...att.artifacts);
    if (att.run) p.run = { ...p.run, ...att.run };
    if (durability === 'step') this.isFlushDue = true;
    if (durability === 'step' || durability === 'now' || durability === 'observed') this.needsDisk = true;
    // a full group is sent and not waited for (a `settle` is waited for: committed before append returns)
    if (durability === 'now' || durability === 'settle') await this.flush();
    else if (p.events.length >= GROUP_COMMIT_MAX_EVENTS) await this.commitPending(false, true);
    return event;
  }

  /**
   * Called when a step is about to execute: what must be durable before it, is made durable.
   * `actsOnWorld` (default true): the step may act on the world (an op with effects, user code
   * that is not pure, a stage of user code), so the run must be recorded before it starts.
   */
  async beforeStep(actsOnWorld = true): Promise<void> {
    // the commit sent ahead of this step (`sendAhead`) is durable before the step starts
    if (this.isInFlightAhead) await this.settleInFlight();
    if (this.isFlushDue || (actsOnWorld && this.creation)) await this.flush(true);
    // a pure step may run beside a lazy commit in flight; nothing else starts before its answer
    else if (actsOnWorld && this.inFlight) await this.settleInFlight();
  }

  /**
   * A step is coming: the commit its `beforeStep` would send and wait for (a `step` event pending) is
   * sent now, and not waited for, so that what comes before the step's effect and needs no commit
   * (its definition, its memo lookup, the request it will send) is worked out while the commit
   * travels. Nothing else changes: the step still starts only once that commit is durable
   * (`beforeStep` waits for it, pure step or not), and the unit is in flight as a pipelined lazy one
   * is — the run's next commit waits for it, its failure is thrown where the run next waits, a
   * refused one gives back its seqs. Only the commit of a recorded run (a creation waits for
   * `beforeStep`), and only with nothing in flight already. Whether it sent one: the caller then lets
   * the microtasks queued by now run first, so the commit is on the wire before it works on (the
   * commit lanes send a batch a microtask after its first operation, commit-lanes.ts).
   */
  sendAhead(): boolean {
    if (!this.isFlushDue || this.inFlight || this.creation || this.sealed) return false;
    const unit = this.takePending(false);
    if (!unit) return false;
    let done: Promise<Error | null>;
    try {
      this.beforeSend();
      done = this.send(unit, null).then(() => null, toError);
    } catch (e) {
      // the fault point before a commit, or a journal that can record nothing more: thrown where the step waits
      done = Promise.resolve(toError(e));
    }
    this.inFlight = { unit, done };
    this.isInFlightAhead = true;
    return true;
  }

  /** a lazy commit is in flight: `inFlightError` has something to wait for */
  get isInFlight(): boolean {
    return this.inFlight !== null;
  }

  /**
   * Waits for the lazy commit in flight, if any; its failure, or null. Never throws: for the
   * runner, which settles it before it decides how a run stops and before its driver returns.
   */
  async inFlightError(): Promise<Error | null> {
    if (!this.inFlight) return null;
    return this.settleInFlight().then(() => null, toError);
  }

  /** Nothing more is recorded: every later append throws `err` (the run ended on an abort request). */
  seal(err: Error): void {
    this.sealed = err;
    this.pending = { events: [] };
  }

  /** `force`: even with no event pending, a run whose record waits is created now. Returns once everything flushed is committed. */
  async flush(force = false): Promise<void> {
    await this.commitPending(force, false);
  }

  /** `pipeline`: a lazy unit is sent without waiting for its answer (settleInFlight takes it) */
  private async commitPending(force: boolean, pipeline: boolean): Promise<void> {
    if (this.sealed) throw this.sealed;
    // order: the run's next commit is sent after the one in flight settled (no await when none is: a
    // commit's timing is then what it was before pipelining)
    if (this.inFlight) await this.settleInFlight();
    const creation = this.creation;
    const unit = this.takePending(force);
    if (!unit) return;
    this.beforeSend();
    const done = this.send(unit, creation);
    if (pipeline && unit.lazy) {
      this.inFlight = { unit, done: done.then(() => null, toError) };
      return;
    }
    try {
      await done;
    } catch (e) {
      // a commit is all or nothing, and this one would fail again: nothing of it is in the log,
      // so its seqs are free for the run to record its failure (after run_started, still waiting to be created)
      if (e instanceof RecordRefusedError) this.nextSeq = creation ? creation.first.events.length + 1 : unit.events[0].seq;
      throw e;
    }
  }

  /** The pending unit (with the run's first one, while that waits), taken to be sent; null when there is nothing to send. */
  private takePending(force: boolean): CommitUnit | null {
    this.isFlushDue = false;
    if (this.pending.events.length === 0 && !(force && this.creation)) return null;
    const creation = this.creation;
    const unit = creation ? withFirst(creation.first, this.pending) : this.pending;
    if (!this.needsDisk && !creation) unit.lazy = true;
    this.pending = { events: [] };
    this.needsDisk = false;
    this.pendingChars = 0;
    return unit;
  }

  /** What precedes every send: the fault point, and a journal that can record nothing more. */
  private beforeSend(): void {
    this.faults.hit('after-step-before-commit');
    if (this.broken) throw this.broken;
  }

  /**
   * Waits for the lazy unit in flight (each waiter, however many) and throws what it failed with,
   * as its own flush would have. A refused value gives back its seqs and drops what was appended
   * after it: those events follow a unit that is not in the log.
   */
  private async settleInFlight(): Promise<void> {
    while (this.inFlight) {
      const f = this.inFlight;
      const err = await f.done;
      if (this.inFlight === f) {
        this.inFlight = null;
        this.isInFlightAhead = false;
        if (err instanceof RecordRefusedError) {
          this.nextSeq = f.unit.events[0].seq;
          this.pending = { events: [] };
          this.needsDisk = false;
          this.isFlushDue = false;
          this.pendingChars = 0;
        }
      }
      if (err) throw err;
    }
  }

  /** One unit to the store, and what its answer means for the journal. */
  private async send(unit: CommitUnit, creation: { first: CommitUnit; create: CreateRun } | null): Promise<void> {
    let r;
    try {
      r = creation ? await creation.create(unit) : await this.store.commit(this.runId, unit);
      this.creation = null;
    } catch (e) {
      // the same write would fail again: its seqs are given back by whoever waits for it (commitPending, settleInFlight)
      if (isUnrecordableValue(e)) throw new RecordRefusedError(this.runId, e);
      // the unit's events are not in the log and their seqs are spent: this journal can record nothing more
      // (a run that could not be created is in no store: the store's own error says why, not a resume's advice)
      this.broken = creation && e instanceof Error ? e : new StoreWriteError(this.runId, this.lostLazy && isSeqGap(e) ? lostLazyCommit(this.lostLazy, e) : e);
      throw this.broken;
    }
    // a durable unit puts every earlier lazy one on disk with it (the write-ahead log is flushed in order)
    this.lostLazy = unit.lazy ? (this.lostLazy ?? { from: unit.events[0].seq, to: 0 }) : null;
    if (this.lostLazy) this.lostLazy.to = unit.events[unit.events.length - 1].seq;
    this.commits++;
    if (r.kind === 'conflict') {
      // nothing more may be recorded after it (a pipelined unit's answer may be heard by several waiters)
      this.broken = new RunClaimedError(
        this.runId,
        `seq ${unit.events[0].seq} was already written (${r.recorded[0]?.type ?? 'unknown event'}); this process stops and leaves the run to it`,
      );
      throw this.broken;
    }
    // a pipelined unit hits it when its answer arrives: committed, and the next unit not sent yet
    // (a SimulatedCrash thrown here is thrown at the next point that waits for the unit)
    this.faults.hit('after-commit');
  }
}

const toError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/** the store refused a unit for not continuing the run's log (SeqGapError, SQLSTATE SC003) */
const isSeqGap = (e: unknown): boolean => (e as { code?: unknown } | null)?.code === 'seq_gap';

/**
 * What a gap met after lazy commits means: the database acknowledged them before they were on disk,
 * then lost them (its server crashed or restarted). They held pure work only: a resume recomputes it.
 */
function lostLazyCommit(lazy: { from: number; to: number }, e: unknown): Error {
  return new Error(
    `events ${lazy.from}–${lazy.to} (pure steps, acknowledged by the database before they reached its disk) were lost, ` +
      `the database server must have restarted since; they are recomputed when the run is resumed (${e instanceof Error ? e.message : String(e)})`,
    { cause: e },
  );
}

/** A new run's first unit followed by what is pending: the later snapshot move wins, as it would in two commits. */
function withFirst(first: CommitUnit, pending: CommitUnit): CommitUnit {
  return { ...pending, events: [...first.events, ...pending.events], snapshot: pending.snapshot ?? first.snapshot };
}

/** What an event adds to its unit: its data and what travels with it (the size of the wire form, give or take its scalars). */
function unitChars(data: JsonObject, att: Attachments): number {
  let n = (knownText(data)?.length ?? jsonChars(data, MAX_UNIT_CHARS)) + 64;
  if (att.traces?.length) n += jsonChars(att.traces, MAX_UNIT_CHARS);
  if (att.artifacts?.length) n += jsonChars(att.artifacts, MAX_UNIT_CHARS);
  if (att.snapshot && att.snapshot !== 'delete') n += jsonChars(att.snapshot.data, MAX_UNIT_CHARS);
  if (att.run) n += jsonChars(att.run, MAX_UNIT_CHARS);
  return n;
}
