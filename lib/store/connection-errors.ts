/**
 * Telling "the database is not there" apart from every other error, wherever
 * it surfaces: Prisma's driver-adapter errors, node-postgres's own, the
 * socket's. A restart of the server, a crash, a network cut or a refused
 * connection all land here, and become one failure kind:
 * StoreUnavailableError `store_unreachable` (HTTP 503) — never a 500, and
 * never a run failed for it (the kernel lets it through every step policy).
 *
 * Owns: the classification and the message. Does not: retry (prisma-store.ts
 * retries commits; a read fails at once and its caller decides).
 */
import { StoreUnavailableError } from '../kernel/errors';

/** node and libpq-style socket failures */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
/** SQLSTATEs of a server going away or not taking connections: 08 connection exception, 57P01–57P03 shutdown / crash / starting */
const SERVER_GONE = /^(08...|57P0[123])$/;
/** what node-postgres and Prisma's adapter say when the socket is gone (no code attached) */
const GONE_MESSAGES = /Connection terminated|connection error|Client was closed|not queryable|Connection ended|connection is closed|timeout exceeded when trying to connect|Can't reach database server|Server has closed the connection/i;
/** Prisma's driver-adapter error kinds for the same */
const GONE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout']);
/** Prisma's own codes: P1001 cannot reach, P1002 timed out, P1017 server closed the connection */
const PRISMA_GONE = new Set(['P1001', 'P1002', 'P1017']);

export function isConnectionError(e: unknown, depth = 0): boolean {
  if (e === null || typeof e !== 'object' || depth > 5) return false;
  if (e instanceof StoreUnavailableError) return e.code === 'store_unreachable';
  const o = e as Record<string, unknown>;
  const code = typeof o.code === 'string' ? o.code : typeof o.originalCode === 'string' ? o.originalCode : undefined;
  if (code && (SOCKET_CODES.has(code) || SERVER_GONE.test(code) || PRISMA_GONE.has(code))) return true;
  if (typeof o.kind === 'string' && GONE_KINDS.has(o.kind)) return true;
  const message = typeof o.message === 'string' ? o.message : typeof o.originalMessage === 'string' ? o.originalMessage : '';
  if (GONE_MESSAGES.test(message)) return true;
  const meta = o.meta as { driverAdapterError?: unknown } | undefined;
  const inner = [o.cause, meta?.driverAdapterError, ...(Array.isArray(o.errors) ? o.errors : [])];
  return inner.some((x) => isConnectionError(x, depth + 1));
}

/** The one error for "the store cannot be reached now", naming where and what to do. */
export function unreachableError(location: string | null, cause: unknown): StoreUnavailableError {
  if (cause instanceof StoreUnavailableError) return cause;
  const why = describe(cause);
  return new StoreUnavailableError(
    'store_unreachable',
    `The database${location ? ` at ${location}` : ''} is unreachable (${why}). Nothing was lost: runs wait and go on when it is back. ` +
      'Check that the Postgres server is running and reachable; this request can be sent again then.',
    { reason: why, ...(location ? { location } : {}) },
  );
}

function describe(e: unknown): string {
  const o = e as { code?: unknown; message?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; originalMessage?: unknown } } } } | null;
  // Prisma's own code (P20xx) says nothing here: the driver's SQLSTATE and message do
  const inner = o?.meta?.driverAdapterError?.cause;
  if (typeof inner?.originalMessage === 'string') return typeof inner.originalCode === 'string' ? `${inner.originalCode}: ${inner.originalMessage}` : inner.originalMessage;
  const message = typeof o?.message === 'string' ? o.message.split('\n').filter(Boolean).pop()! : String(e);
  // Prisma's raw-query wrapper: "Raw query failed. Code: `N/A`. Message: `Can't reach database server at …`"
  const wrapped = /Message: `([^`]+)`/.exec(message);
  if (wrapped) return wrapped[1];
  return typeof o?.code === 'string' && !message.includes(o.code) ? `${o.code}: ${message}` : message;
}

/** `fn`'s result, with a lost connection turned into StoreUnavailableError. */
export async function reachable<T>(location: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw isConnectionError(e) ? unreachableError(location, e) : e;
  }
}
