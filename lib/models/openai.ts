/**
 * The OpenAI-compatible model: one `POST {baseUrl}/chat/completions` per
 * round, against OpenAI, Ollama, vLLM, oMLX or anything that speaks the same
 * protocol.
 *
 * Owns: the translation both ways.
 *   - Messages: our assistant tool calls become `tool_calls` with
 *     `function: { name, arguments: <JSON string> }`; tool results become
 *     `role: tool` messages with `tool_call_id`.
 *   - Tool names: op names contain `/`, which function names may not; `file/read`
 *     is sent as `file__read` and mapped back through the request's own tools.
 *   - Finishing: with tools, the model finishes by calling a synthetic `finish`
 *     tool whose parameters are the request's `responseFormat`; without tools,
 *     the request carries `response_format: { type: 'json_schema', … }` and the
 *     message content is the artifact. The `finish` call is not a tool call of
 *     the turn: it becomes `ModelTurn.finish`.
 *   - Failures, each a `ModelError` saying what to do: `model_http_error`
 *     (status and an excerpt of the body), `model_timeout`,
 *     `model_unreachable` (no connection), `model_bad_response` (not the
 *     protocol, tool arguments that are not a JSON object, or an answer
 *     past MAX_RESPONSE_BYTES, refused as it arrives),
 *     `model_bad_request` (the request cannot be expressed, e.g. two ops that
 *     map to one function name).
 *
 * Does not: retry (a failed round is not recorded; resuming the run asks
 * again), stream, validate the finish artifact against the contract (the
 * kernel does, and tells the model what was wrong), or derive the response
 * schema from the contract (the kernel does, with deriveResponseFormat; only
 * `strict` re-derives it here, because strictness is the provider's rule).
 * The API key is sent as a Bearer token when set and never appears in errors.
 */
import type { Message, ModelPort, ModelRequest, ModelTurn, ToolCall, ToolSpec } from '../kernel/ports';
import type { Json, JsonObject, JsonSchema } from '../kernel/json';
import { isJsonObject } from '../kernel/json';
import { ModelError } from '../kernel/errors';
import { deriveResponseFormat } from '../kernel/response-format';

export const MODEL_TIMEOUT_MS = 120_000;
/** the synthetic tool the model finishes a phase with */
export const FINISH_TOOL = 'finish';
const BODY_EXCERPT_CHARS = 500;
/**
 * The most of an endpoint's answer that is read: past it the answer is refused as it arrives, never held
 * whole (an endpoint, or what sits between it and us, can send gigabytes). A run's value holds at most
 * 16 MB (value-size.ts), which an answer carries JSON-escaped inside its envelope: 64 MB leaves it room.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
const FUNCTION_NAME_MAX_CHARS = 64;

export type OpenAiModelOptions = {
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1` */
  baseUrl: string;
  model: string;
  apiKey?: string;
  fetch?: typeof fetch;
  /** for the whole exchange, body included */
  timeoutMs?: number;
  /** strict structured outputs (OpenAI): closed objects, every property required */
  strict?: boolean;
  temperature?: number;
  /** the most of an answer read (MAX_RESPONSE_BYTES) */
  maxResponseBytes?: number;
};

export function createOpenAiModel(opts: OpenAiModelOptions): ModelPort {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? MODEL_TIMEOUT_MS;
  return {
    name: `openai:${opts.model}`,
    async invoke(req, callOpts) {
      const names = functionNames(req.tools);
      const body = requestBody(req, names, opts);
      const raw = await post(doFetch, url, body, opts.apiKey, timeoutMs, callOpts?.signal, opts.maxResponseBytes ?? MAX_RESPONSE_BYTES);
      return parseResponse(raw, req, names, body.response_format !== undefined, url);
    },
  };
}

// ---------------------------------------------------------------- names

/** `file/read` → `file__read`; anything else a function name may not hold → `_`. */
export function toFunctionName(op: string): string {
  return op.replace(/\//g, '__').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, FUNCTION_NAME_MAX_CHARS);
}

type Names = { toFunction(op: string): string; toOp(fn: string): string };

function functionNames(tools: ToolSpec[]): Names {
  const byFunction = new Map<string, string>();
  for (const t of tools) {
    const fn = toFunctionName(t.name);
    if (fn === FINISH_TOOL) {
      throw new ModelError(
        'model_bad_request',
        `The op ${t.name} would be sent as the function ${FINISH_TOOL}, which is how a model finishes a phase. Rename the op.`,
        { op: t.name, function: fn },
      );
    }
    const clash = byFunction.get(fn);
    if (clash !== undefined && clash !== t.name) {
      throw new ModelError(
        'model_bad_request',
        `The ops ${clash} and ${t.name} would both be sent as the function ${fn}; function names allow only letters, digits, _ and -. Rename one of the ops.`,
        { op: t.name, function: fn },
      );
    }
    byFunction.set(fn, t.name);
  }
  return {
    toFunction: toFunctionName,
    // a name the model made up maps back by the same rule; the kernel refuses an op that does not exist
    toOp: (fn) => byFunction.get(fn) ?? fn.replace(/__/g, '/'),
  };
}

// ---------------------------------------------------------------- request

type ChatBody = {
  model: string;
  messages: JsonObject[];
  tools?: JsonObject[];
  response_format?: JsonObject;
  temperature?: number;
};

function requestBody(req: ModelRequest, names: Names, opts: OpenAiModelOptions): ChatBody {
  const body: ChatBody = { model: opts.model, messages: req.messages.map((m) => toWireMessage(m, names)) };
  if (opts.temperature !== undefined) body.temperature = opts.temperature;
  const schema = finishSchema(req.responseFormat, opts.strict === true);
  const strictFlag = opts.strict ? { strict: true } : {};
  if (req.tools.length > 0) {
    body.tools = [
      ...req.tools.map((t) => ({
        type: 'function',
        function: { name: names.toFunction(t.name), description: t.description, parameters: t.parameters },
      })),
      {
        type: 'function',
        function: {
          name: FINISH_TOOL,
          description: 'Finish this phase. Call it once the work is done; its arguments are the finished artifact.',
          parameters: schema,
          ...strictFlag,
        },
      },
    ];
  } else if (req.responseFormat !== null) {
    body.response_format = { type: 'json_schema', json_schema: { name: FINISH_TOOL, schema, strict: opts.strict === true } };
  }
  return body;
}

/** Providers want an object schema at the root of parameters and response formats. */
function finishSchema(responseFormat: JsonSchema | null, strict: boolean): JsonObject {
  let schema: JsonSchema = responseFormat ?? { type: 'object' };
  if (strict) schema = deriveResponseFormat(schema, { strict: true });
  if (!isJsonObject(schema)) return { type: 'object' };
  return schema.type === undefined ? { type: 'object', ...schema } : schema;
}

function toWireMessage(m: Message, names: Names): JsonObject {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'assistant': {
      if (!m.toolCalls?.length) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        content: m.content === '' ? null : m.content,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: names.toFunction(c.op), arguments: JSON.stringify(c.args) },
        })),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  }
}

// ---------------------------------------------------------------- exchange

/** `cancel`: the run was asked to abort: the request is aborted, and the call rejects with its reason */
async function post(doFetch: typeof fetch, url: string, body: ChatBody, apiKey: string | undefined, timeoutMs: number, cancel: AbortSignal | undefined, maxBytes: number): Promise<unknown> {
  if (cancel?.aborted) throw cancel.reason;
  const controller = new AbortController();
  const onCancel = () => controller.abort(cancel?.reason);
  cancel?.addEventListener('abort', onCancel, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  try {
    const res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: controller.signal });
    const text = await readCapped(res, url, maxBytes);
    if (!res.ok) throw httpError(url, res.status, text);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw badResponse(url, `the body is not JSON: ${excerpt(text)}`);
    }
  } catch (e) {
    if (e instanceof ModelError) throw e;
    if (cancel?.aborted) throw cancel.reason;
    if (timedOut) {
      throw new ModelError(
        'model_timeout',
        `The model endpoint ${url} did not answer within ${timeoutMs} ms. Check that the server is up and the model loaded, ` +
          'or allow longer (STAGECRAFT_MODEL_TIMEOUT_MS); then resume the run.',
        { url, timeoutMs },
      );
    }
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (e as Error).message;
    throw new ModelError(
      'model_unreachable',
      `Cannot reach the model endpoint ${url}: ${why}. Check STAGECRAFT_MODEL_BASE_URL and that the server is running; then resume the run.`,
      { url },
    );
  } finally {
    clearTimeout(timer);
    cancel?.removeEventListener('abort', onCancel);
  }
}

function httpError(url: string, status: number, text: string): ModelError {
  const hint =
    status === 401 || status === 403
      ? 'Check the API key (STAGECRAFT_MODEL_API_KEY).'
      : status === 404
        ? 'Check the base URL (it usually ends in /v1) and the model name.'
        : status === 429
          ? 'The endpoint is rate limiting or out of quota; wait, then resume the run.'
          : status >= 500
            ? 'The server failed; resume the run to ask again (the round was not recorded).'
            : 'The endpoint rejected the request; if the body mentions tools or response_format, this model or server may not support them.';
  return new ModelError('model_http_error', `The model endpoint ${url} answered HTTP ${status}: ${excerpt(text)}. ${hint}`, {
    url,
    status,
    body: excerpt(text),
  });
}

/** The answer's body as text, refused once it passes `maxBytes` (said by its Content-Length, else counted as it arrives). */
async function readCapped(res: Response, url: string, maxBytes: number): Promise<string> {
  const tooLarge = (what: string) => {
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    return badResponse(url, `its answer ${what}, over the ${mb(maxBytes)} read of one (a run's value holds at most 16 MB); nothing of it was kept`);
  };
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge(`is ${declared} bytes long (its Content-Length)`);
  }
  if (!res.body) return res.text();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(`passed ${maxBytes} bytes before its end`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function badResponse(url: string, what: string): ModelError {
  return new ModelError(
    'model_bad_response',
    `The model endpoint ${url} sent a response Stagecraft cannot read: ${what}. Check that the endpoint speaks OpenAI chat completions, ` +
      'or try a model with reliable tool calling / structured output.',
    { url },
  );
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > BODY_EXCERPT_CHARS ? `${flat.slice(0, BODY_EXCERPT_CHARS)}…` : flat;
}

// ---------------------------------------------------------------- response

function parseResponse(raw: unknown, req: ModelRequest, names: Names, hasResponseFormat: boolean, url: string): ModelTurn {
  const where = url;
  const choice = isJsonObject(raw) && Array.isArray(raw.choices) ? raw.choices[0] : undefined;
  const message = isJsonObject(choice) ? choice.message : undefined;
  if (!isJsonObject(message)) throw badResponse(where, 'no `choices[0].message`');

  let text = contentText(message.content);
  if (text === '' && typeof message.refusal === 'string') text = message.refusal;

  const toolCalls: ToolCall[] = [];
  let finish: JsonObject | null = null;
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  calls.forEach((call, i) => {
    const fn = isJsonObject(call) && isJsonObject(call.function) ? call.function : null;
    if (!fn || typeof fn.name !== 'string') throw badResponse(where, `tool call ${i} has no function name`);
    const args = parseArguments(fn.arguments, fn.name, url);
    if (fn.name === FINISH_TOOL) {
      finish ??= args;
      return;
    }
    const id = isJsonObject(call) && typeof call.id === 'string' && call.id !== '' ? call.id : `call_${req.round}_${i}`;
    toolCalls.push({ id, op: names.toOp(fn.name), args });
  });

  if (req.tools.length === 0 && calls.length === 0) finish = contentArtifact(text, hasResponseFormat, url);

  const turn: ModelTurn = { text, toolCalls, finish };
  const usage = isJsonObject(raw) ? raw.usage : undefined;
  if (isJsonObject(usage) && typeof usage.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number') {
    turn.usage = { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens };
  }
  return turn;
}

/** Content is a string, null (tool calls only), or — on some servers — a list of text parts. */
function contentText(content: Json | undefined): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (isJsonObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
  }
  return '';
}

function parseArguments(args: Json | undefined, fn: string, url: string): JsonObject {
  if (isJsonObject(args)) return args; // some servers send the object itself
  if (args === undefined || args === null || (typeof args === 'string' && args.trim() === '')) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(args));
  } catch {
    throw badResponse(url, `the arguments of ${fn} are not valid JSON: ${excerpt(String(args))}`);
  }
  if (!isJsonObject(parsed)) throw badResponse(url, `the arguments of ${fn} are not a JSON object: ${excerpt(String(args))}`);
  return parsed;
}

const FENCE = '```';

/**
 * The model's text, trimmed, without a Markdown code fence around it (```json … ``` or ``` … ```):
 * what `text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1')` gives, by slicing. That pattern
 * backtracks over both runs of white space around its lazy middle, so a reply of ``` and 10,000 spaces
 * (a model's text, any length) held the event loop some 8 minutes — every run of the app waiting.
 */
export function unfenced(text: string): string {
  const body = text.trim();
  if (body.length < 2 * FENCE.length || !body.startsWith(FENCE) || !body.endsWith(FENCE)) return body;
  // `json` is the fence's language only where a closing fence still fits after it
  const open = body.startsWith('json', FENCE.length) && body.length >= 2 * FENCE.length + 4 ? FENCE.length + 4 : FENCE.length;
  return body.slice(open, -FENCE.length).trim();
}

/**
 * The artifact of a tool-less round is the message content. Asked for with
 * response_format, content that is not a JSON object is a provider failure;
 * asked without one, it is a turn that did not finish.
 */
function contentArtifact(text: string, hasResponseFormat: boolean, url: string): JsonObject | null {
  const body = unfenced(text);
  try {
    const parsed: unknown = JSON.parse(body);
    if (isJsonObject(parsed)) return parsed;
  } catch {
    // handled below
  }
  if (!hasResponseFormat) return null;
  throw badResponse(url, `response_format asked for a JSON object, but the content is ${excerpt(text) || 'empty'}`);
}
