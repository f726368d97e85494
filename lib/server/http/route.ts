/**
 * HTTP mechanics every route shares (handle.ts, the route wrapper, uses
 * them): reading a body no further than its cap (413 before a byte of it is
 * parsed), JSON with located errors, and mapping any error to
 * `{error: {code, message, details}}` with its status in one place
 * (`errorResponse`). Anything a caller sent gets a 4xx; a 500 means a bug.
 *
 * Owns: HTTP mechanics. Does not: decide anything about skills or runs.
 */
import { PayloadTooLargeError, StagecraftError } from '../../kernel/errors';
import type { Json } from '../../kernel/json';
import type { ErrorView } from '../../views';
import { jsonTextDepth } from '../../kernel/json-depth';
import { MAX_INPUT_BYTES, MAX_JSON_DEPTH } from '../limits';
import { jsonErrorPosition } from '../../skill/text-position';
import { isConnectionError, unreachableError } from '../../store/connection-errors';
import { hostFilesError } from '../../store/host-files';
import { serverLog } from '../log';

/** the largest request body accepted (8 MB, the --input cap): a bundle at its 5 MB limit, JSON-encoded, fits */
export const MAX_BODY_BYTES = MAX_INPUT_BYTES;

/** A request's own mistake found by the wrapper: not JSON, the wrong shape. */
export class RequestInvalidError extends StagecraftError {
  constructor(message: string, details: Record<string, Json> = {}) {
    super('invalid_request', message, { httpStatus: 400, details });
  }
}

export function errorResponse(e: unknown): Response {
  // a lost database connection from any query (the skills repository's too) is 503, never a 500
  if (!(e instanceof StagecraftError) && isConnectionError(e)) e = unreachableError(null, e);
  // the machine's files refusing (a full disk, a read-only data dir): 503 saying so, and the operator's log too
  const files = e instanceof StagecraftError ? null : hostFilesError(e);
  if (files) {
    serverLog.error(`stagecraft: a request could not be answered: ${files.message}`);
    e = files;
  }
  // a StagecraftError says its status (4xx: the caller's; 503: the store is away); a plain 500 is a bug
  if (e instanceof StagecraftError && e.httpStatus !== 500) return errorJson(e.httpStatus, e.code, e.message, e.details as Record<string, unknown>);
  serverLog.error('stagecraft: internal error answering a request:', e);
  return errorJson(500, 'internal', 'An internal error occurred; it was logged by the server. This is a bug: please report it.');
}

/** The one shape of every error answer: `{error: {code, message, details?}}` (the proxy's refusals too). */
export function errorJson(status: number, code: string, message: string, details?: Record<string, unknown>): Response {
  return json({ error: { code, message, ...(details && Object.keys(details).length ? { details } : {}) } } satisfies ErrorView, status);
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers } });
}

/** what to do about a JSON request body over its cap (its largest part is a bundle's files) */
const JSON_BODY_HINT = 'Send less (a bundle holds at most 5 MB of files).';

/** The body as text, read no further than `maxBytes` (413 past it, before anything is parsed, saying `hint`). */
export async function readTextBody(req: Request, maxBytes = MAX_BODY_BYTES, hint = JSON_BODY_HINT): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  const tooLarge = (n: number | string) => new PayloadTooLargeError(`The request body is ${n} bytes, over the limit of ${maxBytes}. ${hint}`, { limit: maxBytes });
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(declared);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge(`more than ${maxBytes}`);
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new RequestInvalidError('The request body is not UTF-8 text. Send JSON, encoded as UTF-8.');
  }
}

/** A request body's text as JSON: refused past the nesting limit, and located (line, column) when it is not JSON. */
export function parseJsonText(text: string): unknown {
  if (jsonTextDepth(text) > MAX_JSON_DEPTH) throw new RequestInvalidError(`The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels: flatten it.`);
  try {
    return JSON.parse(text);
  } catch (e) {
    const at = jsonErrorPosition(text);
    throw new RequestInvalidError(`The request body is not valid JSON${at ? ` (line ${at.line}, column ${at.column})` : ''}: ${(e as Error).message}.`, at ? { ...at } : {});
  }
}
