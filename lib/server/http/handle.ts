/**
 * The one wrapper every route handler goes through, derived from its entry of
 * the route table (lib/api/routes.ts): it checks the path params, decodes and
 * parses the query, caps and parses the body (a body over the cap is 413
 * before a byte of it is parsed), calls the handler (one lib/server
 * operation), and checks what goes back against the entry's answer — a JSON
 * view (nothing unlisted leaks out), 204, or a stream of server-sent events
 * whose every message is checked too. Any error becomes
 * `{error: {code, message, details}}` with its status in one place
 * (`errorResponse`); a request's own mistake is a 400 that names the part
 * (`?limit=0: …`, `the path's id …`, `the request body …`).
 *
 * Owns: HTTP mechanics. Does not: decide anything about skills or runs.
 */
import { ZodError, type ZodType } from 'zod';
import { UsageError, type StagecraftError } from '../../kernel/errors';
import { decodeQuery, type HandlerArgs, type HandlerResult, type RouteDef } from '../../api/route-def';
import { errorResponse, json, parseJsonText, readTextBody, RequestInvalidError } from './route';
import { sseResponse, type SseMessage } from './sse';
import { asInteractive } from '../../store/read-priority';

export type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const FORM = 'application/x-www-form-urlencoded';

/**
 * What a zod issue says, naming where in the request it is: a query or path that is not as the
 * route takes it is a `usage` error (as the CLI's flags are), a body an `invalid_request`; both 400.
 */
function invalid(part: 'params' | 'query' | 'body', e: ZodError, raw: (key: string) => string | null): StagecraftError {
  const issues = e.issues.map((i) => ({ part, path: i.path.map(String).join('.'), message: i.message }));
  const first = issues[0];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  if (part === 'query') {
    const key = first?.path.split('.')[0] ?? '';
    const given = raw(key);
    return new UsageError(`?${key}=${given === null ? '' : JSON.stringify(given).slice(0, 80)}: ${first?.message ?? 'invalid'}${more}.`, { issues });
  }
  if (part === 'params') return new UsageError(`The path's ${first?.path || 'params'} is not as this route expects: ${first?.message ?? 'invalid'}.`, { issues });
  return new RequestInvalidError(
    `The request body is not as this route expects: ${first ? `${first.path || '(the body)'}: ${first.message}` : 'invalid'}${more}.`,
    { issues },
  );
}

function parse<T>(schema: ZodType<T>, value: unknown, part: 'params' | 'query' | 'body', raw: (key: string) => string | null = () => null): T {
  const r = schema.safeParse(value);
  if (!r.success) throw invalid(part, r.error, raw);
  return r.data;
}

/** a form's body: a few short fields (the sign-in form's token and the page to go back to), refused past this */
const MAX_FORM_BYTES = 16 * 1024;
/** what to do about a form over its cap: its own limit, not the JSON API's bundle-sized one */
const FORM_BODY_HINT = `A form holds only a few short fields (the sign-in form: the token and the page to go back to): at most ${MAX_FORM_BYTES / 1024} KB.`;

/** the body as the entry takes it: JSON (an empty body is `undefined`, for the schema to accept or refuse), or a form's fields */
async function readBody(req: Request, def: RouteDef): Promise<unknown> {
  if (def.form && (req.headers.get('content-type') ?? '').includes(FORM)) {
    return Object.fromEntries(new URLSearchParams(await readTextBody(req, MAX_FORM_BYTES, FORM_BODY_HINT)));
  }
  const text = await readTextBody(req);
  return text.trim() === '' ? undefined : parseJsonText(text);
}

export function handle<const R extends RouteDef>(def: R, fn: (args: HandlerArgs<R>) => Promise<HandlerResult<R>>): RouteHandler {
  const handler = answer(def, fn);
  // a read someone waits on goes ahead of the runs' own database work (on the embedded store)
  return def.method === 'GET' ? (req, ctx) => asInteractive(() => handler(req, ctx)) : handler;
}

function answer<const R extends RouteDef>(def: R, fn: (args: HandlerArgs<R>) => Promise<HandlerResult<R>>): RouteHandler {
  return async (req, ctx) => {
    try {
      const url = new URL(req.url);
      const rawParams: Record<string, string> = (await ctx?.params) ?? {};
      for (const [k, v] of Object.entries(rawParams)) {
        // no name or id of ours holds a control character; the database would refuse a NUL outright
        if (typeof v === 'string' && /[\u0000-\u001f]/.test(v)) throw new RequestInvalidError(`The path's ${k} holds a control character: check the URL.`);
      }
      const params = def.params ? parse(def.params, rawParams, 'params') : undefined;
      for (const [k, v] of url.searchParams) {
        // a NUL is in no name, id, input or message we keep, and the database refuses one in a query outright
        if (v.includes('\u0000')) throw new UsageError(`?${k}=${JSON.stringify(v).slice(0, 80)}: holds a NUL character (%00), which nothing stored holds: remove it.`, { issues: [{ part: 'query', path: k, message: 'holds a NUL character' }] });
      }
      const query = def.query ? parse(def.query, decodeQuery(def.query, url.searchParams), 'query', (k) => url.searchParams.get(k)) : undefined;
      let body: unknown;
      if (def.rawBody) {
        const mb = Math.round(def.rawBody / (1024 * 1024));
        body = await readTextBody(req, def.rawBody, `This route takes a file, and the file is sent whole: at most ${mb > 0 ? `${mb} MB` : `${def.rawBody} bytes`}.`);
      }
      else if (def.body) {
        const raw = await readBody(req, def);
        if (raw === undefined && !def.body.safeParse(undefined).success) throw new RequestInvalidError('The request body is empty: this route expects a JSON object.');
        body = parse(def.body, raw, 'body');
      }
      const gone = new AbortController();
      req.signal?.addEventListener('abort', () => gone.abort(), { once: true });
      const out = await fn({ params, query, body, req, url, signal: gone.signal } as HandlerArgs<R>);
      if (out instanceof Response) return out;
      const answer = def.answer;
      if (answer.kind === 'empty') return new Response(null, { status: 204 });
      if (answer.kind === 'sse') return sseResponse(out as AsyncIterable<SseMessage>, { events: answer.events, signal: gone.signal, onClose: () => gone.abort() });
      // an answer that does not match its view is our bug (a 500), never the caller's 400
      const checked = answer.schema.safeParse(out);
      if (!checked.success) throw new Error(`the answer of ${def.method} ${def.path} does not match its view: ${checked.error.message}`);
      return json(checked.data, answer.statusOf?.(checked.data) ?? answer.status);
    } catch (e) {
      if (e instanceof ZodError) return errorResponse(invalid('body', e, () => null));
      return errorResponse(e);
    }
  };
}
