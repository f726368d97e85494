/**
 * What a route of the HTTP API is, as data: its method, path, the zod schemas
 * of its path params, query, body and answer. The route table (routes.ts) is
 * made of these; the server's handler wrapper (lib/server/http/handle.ts) and
 * the browser's client (lib/client/api.ts) are both derived from an entry, so
 * a route and its caller cannot disagree on a name, a type or a shape.
 *
 * Owns: the entry's shape and its typing (what a caller passes, what a
 * handler gets and returns), turning params into a path, and a query object
 * into a query string and back. Does not: do HTTP (no fetch, no Response).
 * Imports zod only: the browser loads it.
 */
import { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * a JSON answer, checked against `schema` (`.strict()` views: nothing unlisted leaks out), sent with
 * `status` — or with what `statusOf` says of the answer, for a route whose answer can say "accepted,
 * still under way" (202) as well as "done"
 */
export type JsonAnswer<S extends z.ZodType = z.ZodType> = { kind: 'json'; schema: S; status: number; statusOf?: (answer: z.infer<S>) => number };
/** no body: 204 */
export type EmptyAnswer = { kind: 'empty' };
/** server-sent events: each event name with the schema of its data */
export type StreamAnswer<E extends Record<string, z.ZodType> = Record<string, z.ZodType>> = { kind: 'sse'; events: E };
export type Answer = JsonAnswer | EmptyAnswer | StreamAnswer;

export const jsonAnswer = <S extends z.ZodType>(schema: S, status = 200, statusOf?: (answer: z.infer<S>) => number): JsonAnswer<S> =>
  statusOf ? { kind: 'json', schema, status, statusOf } : { kind: 'json', schema, status };
export const emptyAnswer = (): EmptyAnswer => ({ kind: 'empty' });
export const streamAnswer = <E extends Record<string, z.ZodType>>(events: E): StreamAnswer<E> => ({ kind: 'sse', events });

export type RouteDef = {
  method: Method;
  /** `:name` marks a path param: `/api/runs/:id/events` */
  path: `/api/${string}`;
  /** what it does, in a few words (the README's API table says the same) */
  summary: string;
  params?: z.ZodObject;
  /** a query object: numbers, booleans, strings and lists of strings (comma-separated in the URL) */
  query?: z.ZodObject;
  body?: z.ZodType;
  /** the body may also come as an HTML form (application/x-www-form-urlencoded), its fields as strings */
  form?: boolean;
  /** the body is a file sent as it is (text, at most this many bytes), handed to the handler unparsed: an upload */
  rawBody?: number;
  answer: Answer;
};

/** An entry of the table, its literal types kept (so callers and handlers are typed by it). */
export const defineRoute = <const R extends RouteDef>(r: R): R => r;

// ---------------------------------------------------------------- what callers pass and get

type Part<R, K extends 'params' | 'body'> = R extends { [P in K]: infer S extends z.ZodType }
    ? { [P in K]: z.input<S> }
    : K extends 'body'
      ? R extends { rawBody: number }
        ? { body: string }
        : { body?: undefined }
      : { [P in K]?: undefined };
type QueryPart<R> = R extends { query: infer S extends z.ZodType } ? { query?: z.input<S> } : { query?: undefined };

/** what a caller passes: `{params, query, body}`, each only where the route has it */
export type RouteInput<R extends RouteDef> = Part<R, 'params'> & QueryPart<R> & Part<R, 'body'>;

/** what a caller gets back (a stream's events are typed by StreamEvents) */
export type RouteAnswer<R extends RouteDef> = R['answer'] extends JsonAnswer<infer S> ? z.output<S> : R['answer'] extends EmptyAnswer ? void : never;

export type StreamEvents<R extends RouteDef> = R['answer'] extends StreamAnswer<infer E> ? { [K in keyof E]: z.output<E[K]> } : never;

// ---------------------------------------------------------------- what handlers get and return

type Parsed<R, K extends 'params' | 'query' | 'body'> = R extends { [P in K]: infer S extends z.ZodType }
  ? z.output<S>
  : K extends 'body'
    ? R extends { rawBody: number }
      ? string
      : undefined
    : undefined;

export type HandlerArgs<R extends RouteDef> = {
  params: Parsed<R, 'params'>;
  query: Parsed<R, 'query'>;
  body: Parsed<R, 'body'>;
  req: Request;
  url: URL;
  /** aborted when the caller goes away (a stream's reader closed it, or the request was dropped) */
  signal: AbortSignal;
};

/** one server-sent event: its name (from the route's), its data, and its id (what `Last-Event-ID` brings back) */
export type StreamMessage<E extends Record<string, z.ZodType>> = { [K in keyof E & string]: { event: K; data: z.input<E[K]>; id?: string } }[keyof E & string];

export type HandlerResult<R extends RouteDef> =
  | Response
  | (R['answer'] extends JsonAnswer<infer S> ? z.input<S> : R['answer'] extends StreamAnswer<infer E> ? AsyncIterable<StreamMessage<E>> : void);

// ---------------------------------------------------------------- paths and queries

/** `/api/runs/:id/events` with `{id: 'r 1'}` → `/api/runs/r%201/events` */
export function pathFor(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null || v === '') throw new Error(`the path ${path} needs its ${name}`);
    return encodeURIComponent(String(v));
  });
}

/** The names of a path's params, in order: `/api/skills/:name/versions/:hash` → `['name', 'hash']`. */
export const pathParams = (path: string): string[] => [...path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]);

/** A query object as a query string (`?a=1&b=x,y`), leaving out what is undefined; '' when empty. */
export function encodeQuery(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    sp.set(k, Array.isArray(v) ? v.map(String).join(',') : String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

/** what a field's schema takes once optional/default/nullable wrappers are looked through */
function baseType(s: z.ZodType): string {
  let t = s as z.ZodType & { def: { type: string; innerType?: z.ZodType } };
  while ((t.def.type === 'optional' || t.def.type === 'default' || t.def.type === 'nullable') && t.def.innerType) t = t.def.innerType as typeof t;
  return t.def.type;
}

/**
 * A URL's query as the object its schema parses: a number field's text becomes a number, a
 * boolean's `true`/`false`/`1`/`0` a boolean, a list's comma-separated text a list. Text that is
 * not what the field takes is left as it is, for the schema to refuse with its message. Names the
 * schema does not have are left out.
 */
export function decodeQuery(schema: z.ZodObject, search: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const raw = search.get(key);
    if (raw === null || raw === '') continue;
    const type = baseType(field);
    if (type === 'number') out[key] = /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
    else if (type === 'boolean') out[key] = raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : raw;
    else if (type === 'array') out[key] = raw.split(',').filter((x) => x !== '');
    else out[key] = raw;
  }
  return out;
}

// ---------------------------------------------------------------- schema helpers for entries

/** a whole number in a range, with a message that says so */
export const wholeNumber = (min: number, max: number) => {
  const says = `must be a whole number from ${min} to ${max}`;
  return z.number({ error: says }).int({ error: says }).min(min, { error: says }).max(max, { error: says });
};
