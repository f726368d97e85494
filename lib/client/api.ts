/**
 * The browser's one way to the HTTP API, derived from the route table
 * (lib/api/routes.ts): `callRoute(routes.getRun, { params: { id } })` builds
 * the URL from the entry's path and query, sends the body as JSON, and answers
 * with the entry's answer type — no `as T`. A failure is an ApiError that says
 * what the server said (`{error: {code, message, details}}`), not a status.
 *
 * In development and test the answer is also checked against the entry's view
 * (zod), so a server that drifted from its contract fails where it is called;
 * production builds skip the check, unless the server was started with
 * STAGECRAFT_CHECK_ANSWERS=1 (the browser tests do), which the root layout
 * passes down as `<html data-check-answers>`.
 *
 * Owns: fetch, errors, answer checks, and server-sent event streams
 * (`openRouteStream`). Does not: cache (lib/client/queries.ts puts these
 * calls under TanStack Query).
 */
import type { z } from 'zod';
import { encodeQuery, pathFor, type RouteAnswer, type RouteDef, type RouteInput, type StreamEvents } from '../api/route-def';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** whether answers are checked against their views here (see the header) */
export function checksAnswers(): boolean {
  if (process.env.NODE_ENV !== 'production') return true;
  return typeof document !== 'undefined' && document.documentElement.dataset.checkAnswers === '1';
}

/** The URL of a route for these params and query. */
export function routeUrl<R extends RouteDef>(route: R, input: RouteInput<R>): string {
  const i = input as { params?: Record<string, unknown>; query?: Record<string, unknown> };
  return `${pathFor(route.path, i.params)}${encodeQuery(i.query)}`;
}

/** the answer as its view parses it (where answers are checked), else as the server sent it */
function checked<S extends z.ZodType>(route: RouteDef, schema: S, value: unknown, what: string): z.output<S> {
  // unchecked (production builds): the server checked it against the same view before sending it
  if (!checksAnswers()) return value as z.output<S>;
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const first = r.error.issues[0];
  const message = `The server's ${what} of ${route.method} ${route.path} does not match its view: ${first ? `${first.path.join('.') || '(the answer)'}: ${first.message}` : 'invalid'}.`;
  console.error(message, r.error.issues);
  throw new ApiError(0, 'answer_invalid', message, { issues: r.error.issues });
}

/** `baseUrl` and `headers`: for callers outside a page of the app (tests, scripts: `Authorization: Bearer …`) */
export type CallOptions = { signal?: AbortSignal; baseUrl?: string; headers?: Record<string, string> };

export async function callRoute<R extends RouteDef>(route: R, input: RouteInput<R>, opts: CallOptions = {}): Promise<RouteAnswer<R>> {
  const body = (input as { body?: unknown }).body;
  let res: Response;
  try {
    res = await fetch(`${opts.baseUrl ?? ''}${routeUrl(route, input)}`, {
      method: route.method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers },
      // an upload (a route with rawBody) goes as it is: it is a JSON file already
      body: body === undefined ? undefined : route.rawBody ? String(body) : JSON.stringify(body),
      cache: 'no-store',
      signal: opts.signal,
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'unreachable', `The server cannot be reached (${(e as Error).message}). Is Stagecraft still running?`);
  }
  const text = res.status === 204 ? '' : await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!res.ok) {
    const err = (parsed as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | null)?.error;
    throw new ApiError(res.status, err?.code ?? 'http_error', err?.message ?? `The server answered ${res.status} ${res.statusText}.`, err?.details);
  }
  const answer = route.answer;
  if (answer.kind !== 'json') return undefined as RouteAnswer<R>;
  // the entry's own view: RouteAnswer<R> is its output type
  return checked(route, answer.schema, parsed, 'answer') as RouteAnswer<R>;
}

type StreamHandlers<R extends RouteDef> = { [K in keyof StreamEvents<R>]?: (data: StreamEvents<R>[K], id: string) => void } & {
  /** the connection dropped: the browser reconnects by itself, sending the last id it had (Last-Event-ID) */
  onError?: () => void;
};

/**
 * Opens a route's server-sent events; each event's data is checked against its view (as answers
 * are). Returns the function that closes it. EventSource reconnects after a drop on its own, from
 * the last id it received; close it when the stream says it is done.
 */
export function openRouteStream<R extends RouteDef>(route: R, input: RouteInput<R>, handlers: StreamHandlers<R>): () => void {
  if (route.answer.kind !== 'sse') throw new Error(`${route.method} ${route.path} is not a stream`);
  const events = route.answer.events;
  const source = new EventSource(routeUrl(route, input));
  for (const [name, schema] of Object.entries(events)) {
    const on = (handlers as Record<string, ((data: unknown, id: string) => void) | undefined>)[name];
    if (!on) continue;
    source.addEventListener(name, (e) => {
      const m = e as MessageEvent<string>;
      try {
        on(checked(route, schema, JSON.parse(m.data), `"${name}" event`), m.lastEventId);
      } catch (err) {
        console.error(err);
      }
    });
  }
  source.onerror = () => handlers.onError?.();
  return () => source.close();
}
