/**
 * Errors of a run's identity and life: a run, event or value that is not there, a run that cannot
 * be resumed, has ended, is driven elsewhere, was let go or asked to abort, or whose id is taken.
 * Re-exported by `lib/kernel/errors`.
 *
 * Owns: the words each says (with what to do next). Does not: decide exit codes or HTTP answers.
 */
import { plural } from '../plural';
import { StagecraftError } from './base';

export class RunNotFoundError extends StagecraftError {
  constructor(runId: string) {
    super('run_not_found', `No run with id ${runId}. List runs with \`stagecraft runs\` or check the id.`, {
      httpStatus: 404,
      details: { runId },
    });
  }
}

/** A seq past a run's log (or before its start): the inspector asked for an event it does not have yet. */
export class EventNotFoundError extends StagecraftError {
  constructor(runId: string, seq: number, lastSeq: number) {
    super('event_not_found', `Run ${runId} has ${plural(lastSeq, 'event')} so far; there is no event ${seq}. Ask for a seq from 0 (before the first event) to ${lastSeq}.`, {
      httpStatus: 404,
      details: { runId, seq, lastSeq },
    });
  }
}

/** A value reference (`{ seq, path }`) that names nothing in the run. */
export class ValueNotFoundError extends StagecraftError {
  constructor(runId: string, seq: number, path: string) {
    super('value_not_found', `Run ${runId} has no value at ${path} (seq ${seq}). Use a ref from a state or item view as it was given: \`state/…\`, \`item/…\` or \`event/…\` at the seq it names.`, {
      httpStatus: 404,
      details: { runId, seq, path },
    });
  }
}

export class RunNotResumableError extends StagecraftError {
  constructor(runId: string, why: string) {
    super('run_not_resumable', `Run ${runId} cannot be resumed: ${why}`, { httpStatus: 409, details: { runId } });
  }
}

/** The run has already ended: there is nothing left to abort. */
export class RunFinishedError extends StagecraftError {
  constructor(runId: string, status: string) {
    super('run_finished', `Run ${runId} has already ended (${status}); there is nothing to abort.`, { httpStatus: 409, details: { runId, status } });
  }
}

/** Another process is driving this run (it holds the claim or committed the same seq first). */
export class RunClaimedError extends StagecraftError {
  constructor(runId: string, why: string) {
    super('run_claimed', `Run ${runId} is being driven by another process: ${why}`, {
      httpStatus: 409,
      details: { runId },
    });
  }
}

/**
 * The driver was asked to let go of the run (a worker stopping, a lease lost): it stopped before its
 * next step, with everything before it committed. Not a failure: the run stays resumable and another
 * driver picks it up where it stopped.
 */
export class RunReleasedError extends StagecraftError {
  constructor(runId: string, why: string) {
    super('run_released', `Run ${runId} was let go by this process before its next step (${why}); it resumes where it stopped.`, {
      httpStatus: 409,
      details: { runId },
    });
  }
}

/**
 * A user asked for the run to be aborted while it was driven (StorePort.requestAbort): the step in
 * flight is cut short (its code worker killed, its model call aborted, its wait ended) and the
 * run ends aborted on request. No step policy absorbs it: it is not the step's failure.
 */
export class AbortRequestedError extends StagecraftError {
  constructor(runId: string, reason: string) {
    super('abort_requested', `Run ${runId} was asked to abort (${reason}); it stops before anything else runs.`, {
      httpStatus: 409,
      details: { runId },
    });
  }
}

/** A caller-chosen run id that is already taken. */
export class RunExistsError extends StagecraftError {
  constructor(runId: string) {
    super('run_exists', `A run with id ${runId} already exists; run ids must be new (resume it with \`stagecraft resume ${runId}\`).`, {
      httpStatus: 409,
      details: { runId },
    });
  }
}
