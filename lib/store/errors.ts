/**
 * The store's failure kinds, and the one function that turns a database error
 * (as Prisma reports it through a driver adapter) into one of them.
 *
 * Owns: the meaning of the SQLSTATEs the migrations raise (SC001 append-only,
 * *_append_only_events; SC002–SC004 from the commit functions, *_commit_functions
 * and *_verbatim_json; SC003 also from the gap-free trigger, *_events_gap_free;
 * SC005 an unknown batch operation, a bug, *_batched_apply) and of the Postgres errors a caller can
 * cause. Does not: retry anything (prisma-store.ts decides that) or map to HTTP
 * (StagecraftError carries the status; lib/server maps it).
 */
import { RunExistsError, RunNotFoundError, StagecraftError } from '../kernel/errors';

/** A commit whose seqs skip ahead of the log: a bug in the caller, never retried. */
export class SeqGapError extends StagecraftError {
  constructor(message: string, runId: string) {
    super('seq_gap', `${message}. Events must continue the log without gaps; this is a bug in the caller.`, {
      details: { runId },
    });
  }
}

// one class for "that run id is taken", whoever notices first (the kernel, or the store's insert)
export { RunExistsError };

/** A value Postgres cannot store (a NUL character in text or JSON, an invalid surrogate, …). */
export class UnsupportedValueError extends StagecraftError {
  constructor(message: string, details: Record<string, string> = {}) {
    super('store_value_unsupported', message, { httpStatus: 422, details });
  }
}

/** An UPDATE, DELETE or TRUNCATE of events, refused by the database's trigger. */
export class EventLogImmutableError extends StagecraftError {
  constructor(message: string) {
    super('event_log_immutable', `${message}. The event log is append-only; record a new event instead.`, {
      httpStatus: 409,
    });
  }
}

export type DbError = { code: string; message: string; detail?: string };

/** The Postgres SQLSTATE and message behind a Prisma error, or null if it did not come from the database. */
export function dbErrorOf(e: unknown): DbError | null {
  const meta = (e as { meta?: { driverAdapterError?: { cause?: Record<string, unknown> } } })?.meta;
  // Prisma wraps the driver's error; the commit lanes (commit-lanes.ts) throw the driver's own
  const direct = typeof (e as { code?: unknown } | null)?.code === 'string' && (e as { severity?: unknown }).severity !== undefined ? (e as Record<string, unknown>) : undefined;
  const cause = meta?.driverAdapterError?.cause ?? direct ?? (e as { cause?: Record<string, unknown> })?.cause;
  if (!cause || typeof cause !== 'object') return null;
  const code = cause.originalCode ?? cause.code;
  const message = cause.originalMessage ?? cause.message;
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  return { code, message, detail: typeof cause.detail === 'string' ? cause.detail : undefined };
}

/** A unique violation of the events key: another writer recorded the same seq first. */
export function isEventKeyRace(e: unknown): boolean {
  const db = dbErrorOf(e);
  return db?.code === '23505' && db.message.includes('events_pkey');
}

/** Maps a database error raised while working on `runId` to the store's error kinds; others pass through. */
export function storeErrorOf(e: unknown, runId: string | null): unknown {
  const db = dbErrorOf(e);
  if (!db) return e;
  switch (db.code) {
    case 'SC001':
      return new EventLogImmutableError(db.message);
    case 'SC002':
      return new RunNotFoundError(runId ?? '?');
    case 'SC003':
      return new SeqGapError(db.message, runId ?? '?');
    case 'SC004':
      return new RunExistsError(runId ?? '?');
    case '54000': // program_limit_exceeded: a value past what Postgres can hold (a jsonb over 256 MB, …)
      return new UnsupportedValueError(`Postgres cannot store this value: ${db.message}. Keep large data in the workspace, not in a step's output.`, runId ? { runId } : {});
    case '22P05': // unsupported Unicode escape sequence (\u0000 in jsonb)
    case '22021': // invalid byte sequence for encoding "UTF8": 0x00 in text
    case '22P02': {
      // invalid text representation: an unpaired surrogate in JSON, a malformed uuid, …
      const textual = db.code !== '22P02' || /json/i.test(db.message);
      return new UnsupportedValueError(
        `Postgres cannot store this value: ${db.message}${db.detail ? ` (${db.detail})` : ''}` +
          (textual
            ? '. Text and JSON strings must not contain NUL characters (\\u0000) or unpaired surrogates; ' +
              'encode binary content (e.g. base64) before recording it.'
            : '.'),
        runId ? { runId } : {},
      );
    }
    default:
      return e;
  }
}
