/**
 * Errors of recording a run: a value the store cannot keep (the same write fails every time), a
 * store that failed a commit (the run resumes once it is back), a store that cannot be opened.
 * Re-exported by `lib/kernel/errors`.
 *
 * Owns: which store failures are the value's, not the store's (`isUnrecordableValue`). Does not:
 * talk to a store (lib/store maps its drivers' errors to these).
 */
import { StagecraftError, type ErrorDetails } from './base';

/**
 * The store refused what a run had to record for what it is — a value it cannot serialize or
 * keep, not a store that is away: recording it again would fail the same way. The run fails,
 * recorded (never left running, never retried by a resume).
 */
export class RecordRefusedError extends StagecraftError {
  constructor(runId: string, cause: unknown) {
    super(
      'record_refused',
      `Run ${runId} produced something the store cannot record: ${cause instanceof Error ? cause.message : String(cause)}. ` +
        'Recording it again would fail the same way, so the run fails here. Keep large or binary data in the workspace, not in step outputs.',
      { httpStatus: 422, details: { runId, ...(typeof (cause as { code?: unknown })?.code === 'string' ? { cause: (cause as { code: string }).code } : {}) }, cause },
    );
  }
}

/** Codes of store failures caused by the value written, not by the store: the same write fails every time. */
const UNRECORDABLE_CODES = new Set(['store_value_unsupported', 'value_too_large']);

/** Whether a failed commit failed for what it carried (deterministic), not for where it went. */
export function isUnrecordableValue(e: unknown): boolean {
  return UNRECORDABLE_CODES.has(String((e as { code?: unknown } | null)?.code));
}

/**
 * The store failed to record a commit. The run stops where it is — its
 * snapshot still points at the last committed state — and can be resumed once
 * the store is back.
 */
export class StoreWriteError extends StagecraftError {
  constructor(runId: string, cause: unknown) {
    super(
      'store_write_failed',
      `Could not record run ${runId}: ${cause instanceof Error ? cause.message : String(cause)}. Nothing after the last commit was recorded; resume the run when the store is reachable.`,
      { httpStatus: 503, details: { runId }, cause },
    );
  }
}

/**
 * The machine's files refused what this process had to do — no space left, a read-only file system,
 * no permission, no descriptors left — where it reaches a command's or a request's end
 * (lib/store/host-files.ts says which): the machine's state, not a bug, and said as one, with what to
 * do. 503 to an API caller: the server cannot do it now, and nothing the caller sent is wrong.
 */
export class HostFilesError extends StagecraftError {
  constructor(code: 'disk_full' | 'files_read_only' | 'files_permission_denied' | 'too_many_open_files' | 'database_files_unusable', message: string, details: ErrorDetails = {}, cause?: unknown) {
    super(code, message, { httpStatus: 503, details, cause });
  }
}

/** The store cannot be opened (embedded data dir held by another process, bad URL, ...). */
export class StoreUnavailableError extends StagecraftError {
  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(code, message, { httpStatus: 503, details });
  }
}

/**
 * What the app answered a CLI command that went through it (the embedded store is the app's while it
 * runs: cli/through-app.ts): the app's error as it said it — its code, message and details — so the
 * command fails as it would have on the store itself.
 */
export class AppAnswerError extends StagecraftError {
  constructor(code: string, message: string, httpStatus: number, details: ErrorDetails = {}) {
    super(code, message, { httpStatus, details });
  }
}

/**
 * A run a CLI command followed through the app (cli/through-app.ts) is recorded as running, but the
 * app no longer drives it: its drive stopped without ending it (a resume that failed after the app
 * answered, a store or sandbox that went away), which the app's log says. Following it would never end.
 */
export class RunLeftByAppError extends StagecraftError {
  constructor(runId: string) {
    super('run_left_by_app', `Run ${runId} is still recorded as running, but the app stopped driving it without ending it (the app's log says why). To go on with it: stagecraft resume ${runId}.`, {
      httpStatus: 409,
      details: { runId },
    });
  }
}
