import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAiModel, toFunctionName } from './openai';
import type { ModelRequest, ToolSpec } from '../kernel/ports';
import type { JsonObject } from '../kernel/json';
import { rejectsWith } from './testing';
import { deps, phase, plan, runWith } from '../kernel/testing';
import { RunFold } from '../kernel/fold';
import { buildTimeline } from '../kernel/timeline';
import { priceFor } from '../kernel/prices';

// ---------------------------------------------------------------- a chat-completions server on 127.0.0.1

type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: JsonObject };
type Reply = { status?: number; json?: unknown; raw?: string; hang?: boolean };

async function withServer(reply: (seen: Seen) => Reply, run: (baseUrl: string, seen: Seen[]) => Promise<void>): Promise<void> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString('utf8')));
    req.on('end', () => {
      const s: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: JSON.parse(data) as JsonObject };
      seen.push(s);
      const r = reply(s);
      if (r.hang) return; // never answer
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
      res.end(r.raw ?? JSON.stringify(r.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await run(`http://127.0.0.1:${port}/v1/`, seen);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const completion = (message: JsonObject, usage?: JsonObject) => ({
  json: { id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }], ...(usage ? { usage } : {}) },
});

const readTool: ToolSpec = {
  name: 'file/read',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
const artifact = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };

const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  runId: 'run-1',
  phase: 'draft',
  round: 2,
  messages: [
    { role: 'system', content: 'You write.' },
    { role: 'user', content: 'Write a title.' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1_0', op: 'file/read', args: { path: 'notes.txt' } }] },
    { role: 'tool', toolCallId: 'call_1_0', op: 'file/read', content: 'the notes' },
    { role: 'assistant', content: 'Thinking.' },
  ],
  tools: [readTool],
  responseFormat: artifact,
  ...over,
});


// ---------------------------------------------------------------- what we send

test('openai: sends mapped messages, tools with mapped names, the finish tool, and the Bearer key', async () => {
  await withServer(
    () => completion({ content: 'ok' }),
    async (baseUrl, seen) => {
      await createOpenAiModel({ baseUrl, model: 'm1', apiKey: 'sk-test' }).invoke(request());
      const [s] = seen;
      assert.equal(s.method, 'POST');
      assert.equal(s.url, '/v1/chat/completions');
      assert.equal(s.headers.authorization, 'Bearer sk-test');
      assert.equal(s.headers['content-type'], 'application/json');
      assert.equal(s.body.model, 'm1');
      assert.deepEqual(s.body.messages, [
        { role: 'system', content: 'You write.' },
        { role: 'user', content: 'Write a title.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1_0', type: 'function', function: { name: 'file__read', arguments: '{"path":"notes.txt"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1_0', content: 'the notes' },
        { role: 'assistant', content: 'Thinking.' },
      ]);
      assert.deepEqual(s.body.tools, [
        { type: 'function', function: { name: 'file__read', description: 'Read a file', parameters: readTool.parameters } },
        {
          type: 'function',
          function: {
            name: 'finish',
            description: 'Finish this phase. Call it once the work is done; its arguments are the finished artifact.',
            parameters: artifact,
          },
        },
      ]);
      assert.equal(s.body.response_format, undefined);
    },
  );
});

test('openai: without tools, response_format carries the schema; no key, no Authorization header', async () => {
  await withServer(
    () => completion({ content: '{"title":"Hi"}' }),
    async (baseUrl, seen) => {
      const turn = await createOpenAiModel({ baseUrl, model: 'm1' }).invoke(request({ tools: [] }));
      const [s] = seen;
      assert.equal(s.headers.authorization, undefined);
      assert.equal(s.body.tools, undefined);
      assert.deepEqual(s.body.response_format, { type: 'json_schema', json_schema: { name: 'finish', schema: artifact, strict: false } });
      assert.deepEqual(turn, { text: '{"title":"Hi"}', toolCalls: [], finish: { title: 'Hi' } });
    },
  );
});

test('openai: strict derives a strict schema and flags it', async () => {
  await withServer(
    () => completion({ content: '{"title":"Hi","note":"n"}' }),
    async (baseUrl, seen) => {
      const schema = { type: 'object', properties: { title: { type: 'string' }, note: { type: 'string' } } };
      await createOpenAiModel({ baseUrl, model: 'm1', strict: true }).invoke(request({ tools: [], responseFormat: schema }));
      assert.deepEqual(seen[0].body.response_format, {
        type: 'json_schema',
        json_schema: { name: 'finish', schema: { ...schema, additionalProperties: false, required: ['title', 'note'] }, strict: true },
      });
    },
  );
});

test('openai: a finish schema without a root type is sent as an object', async () => {
  await withServer(
    () => completion({ content: '' }),
    async (baseUrl, seen) => {
      const anyOf: JsonObject = { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'string' } } }] };
      await createOpenAiModel({ baseUrl, model: 'm' }).invoke(request({ responseFormat: anyOf }));
      const tools = seen[0].body.tools as JsonObject[];
      assert.deepEqual((tools[1].function as JsonObject).parameters, { type: 'object', ...anyOf });
    },
  );
});

// ---------------------------------------------------------------- what we read

test('openai: a tool-call turn maps names back and parses arguments; usage is read', async () => {
  await withServer(
    () =>
      completion(
        {
          content: 'Let me read.',
          tool_calls: [
            { id: 'abc', type: 'function', function: { name: 'file__read', arguments: '{"path":"a.txt"}' } },
            { id: '', type: 'function', function: { name: 'file__read', arguments: '' } },
          ],
        },
        { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
      ),
    async (baseUrl) => {
      const turn = await createOpenAiModel({ baseUrl, model: 'm' }).invoke(request());
      assert.deepEqual(turn, {
        text: 'Let me read.',
        toolCalls: [
          { id: 'abc', op: 'file/read', args: { path: 'a.txt' } },
          { id: 'call_2_1', op: 'file/read', args: {} },
        ],
        finish: null,
        usage: { inputTokens: 12, outputTokens: 5 },
      });
    },
  );
});

test('openai: a finish via the finish tool is the artifact, not a tool call', async () => {
  await withServer(
    () => completion({ content: null, tool_calls: [{ id: 'f', type: 'function', function: { name: 'finish', arguments: '{"title":"Done"}' } }] }),
    async (baseUrl) => {
      const turn = await createOpenAiModel({ baseUrl, model: 'm' }).invoke(request());
      assert.deepEqual(turn, { text: '', toolCalls: [], finish: { title: 'Done' } });
    },
  );
});

test('openai: a plain JSON answer (fenced or not) finishes a tool-less round', async () => {
  for (const content of ['{"title":"Plain"}', '```json\n{"title":"Plain"}\n```']) {
    await withServer(
      () => completion({ content }),
      async (baseUrl) => {
        const turn = await createOpenAiModel({ baseUrl, model: 'm' }).invoke(request({ tools: [] }));
        assert.deepEqual(turn.finish, { title: 'Plain' });
      },
    );
  }
});

test('openai: with tools, text content does not finish; without a response format, prose does not either', async () => {
  await withServer(
    () => completion({ content: '{"title":"not a finish"}' }),
    async (baseUrl) => {
      assert.equal((await createOpenAiModel({ baseUrl, model: 'm' }).invoke(request())).finish, null);
    },
  );
  await withServer(
    () => completion({ content: 'just prose' }),
    async (baseUrl) => {
      const turn = await createOpenAiModel({ baseUrl, model: 'm' }).invoke(request({ tools: [], responseFormat: null }));
      assert.deepEqual(turn, { text: 'just prose', toolCalls: [], finish: null });
    },
  );
});

// ---------------------------------------------------------------- failures

test('openai: HTTP 500 is model_http_error with the status and a body excerpt', async () => {
  await withServer(
    () => ({ status: 500, raw: '{"error":{"message":"model crashed"}}' }),
    async (baseUrl) => {
      const e = await rejectsWith(createOpenAiModel({ baseUrl, model: 'm', apiKey: 'sk-secret' }).invoke(request()), 'model_http_error', /HTTP 500.*model crashed.*resume the run/);
      assert.equal(e.details.status, 500);
      assert.match(String(e.details.body), /model crashed/);
      assert.doesNotMatch(JSON.stringify(e.toJSON()), /sk-secret/);
    },
  );
});

test('openai: HTTP 401 says to check the key', async () => {
  await withServer(
    () => ({ status: 401, raw: 'unauthorized' }),
    async (baseUrl) => {
      await rejectsWith(createOpenAiModel({ baseUrl, model: 'm' }).invoke(request()), 'model_http_error', /STAGECRAFT_MODEL_API_KEY/);
    },
  );
});

test('openai: malformed tool arguments are model_bad_response', async () => {
  await withServer(
    () => completion({ tool_calls: [{ id: 'a', type: 'function', function: { name: 'file__read', arguments: '{"path": "a.txt"' } }] }),
    async (baseUrl) => {
      await rejectsWith(createOpenAiModel({ baseUrl, model: 'm' }).invoke(request()), 'model_bad_response', /arguments of file__read are not valid JSON/);
    },
  );
  await withServer(
    () => completion({ tool_calls: [{ id: 'a', type: 'function', function: { name: 'finish', arguments: '[1,2]' } }] }),
    async (baseUrl) => {
      await rejectsWith(createOpenAiModel({ baseUrl, model: 'm' }).invoke(request()), 'model_bad_response', /not a JSON object/);
    },
  );
});

test('openai: a response that is not the protocol is model_bad_response', async () => {
  for (const reply of [{ raw: '<html>proxy</html>' }, { json: { choices: [] } }]) {
    await withServer(
      () => reply,
      async (baseUrl) => {
        await rejectsWith(createOpenAiModel({ baseUrl, model: 'm' }).invoke(request()), 'model_bad_response');
      },
    );
  }
});

test('openai: content that is not JSON when response_format asked for it is model_bad_response', async () => {
  await withServer(
    () => completion({ content: 'Sure! Here is the title: Hi' }),
    async (baseUrl) => {
      await rejectsWith(createOpenAiModel({ baseUrl, model: 'm' }).invoke(request({ tools: [] })), 'model_bad_response', /response_format asked for a JSON object/);
    },
  );
});

test('openai: a hung server is model_timeout within the timeout', async () => {
  await withServer(
    () => ({ hang: true }),
    async (baseUrl) => {
      const started = performance.now();
      await rejectsWith(createOpenAiModel({ baseUrl, model: 'm', timeoutMs: 150 }).invoke(request()), 'model_timeout', /within 150 ms/);
      const elapsed = performance.now() - started;
      assert.ok(elapsed >= 140 && elapsed < 2000, `took ${elapsed} ms`);
    },
  );
});

test('openai: nothing listening is model_unreachable', async () => {
  let baseUrl = '';
  await withServer(
    () => ({ json: {} }),
    async (url) => {
      baseUrl = url;
    },
  );
  await rejectsWith(createOpenAiModel({ baseUrl, model: 'm', timeoutMs: 2000 }).invoke(request()), 'model_unreachable', /ECONNREFUSED/);
});

test('openai: two ops that map to one function name are refused', async () => {
  const tools: ToolSpec[] = [readTool, { ...readTool, name: 'file__read' }];
  await rejectsWith(createOpenAiModel({ baseUrl: 'http://127.0.0.1:9', model: 'm' }).invoke(request({ tools })), 'model_bad_request', /file\/read and file__read/);
  await rejectsWith(
    createOpenAiModel({ baseUrl: 'http://127.0.0.1:9', model: 'm' }).invoke(request({ tools: [{ ...readTool, name: 'finish' }] })),
    'model_bad_request',
    /how a model finishes a phase/,
  );
});

test('openai: function names', () => {
  assert.equal(toFunctionName('file/read'), 'file__read');
  assert.equal(toFunctionName('mcp/github/search.issues'), 'mcp__github__search_issues');
  assert.equal(toFunctionName('x'.repeat(80)).length, 64);
});

// ---------------------------------------------------------------- an endpoint that reports no usage

test('openai: an endpoint that leaves `usage` out: the run counts those turns as not reported, not as 0 tokens', async () => {
  let answered = 0;
  await withServer(
    // three phases of one turn each; only the first answer says what it used
    () => completion({ content: '{"n": 1}' }, ++answered === 1 ? { prompt_tokens: 40, completion_tokens: 2, total_tokens: 42 } : undefined),
    async (baseUrl) => {
      const model = createOpenAiModel({ baseUrl, model: 'm' });
      const p = plan({
        phases: {
          a: phase('a', { successors: ['b'], isTerminal: false }),
          b: phase('b', { successors: ['c'], isTerminal: false }),
          c: phase('c'),
        },
      });
      const d = deps(model);
      const outcome = await runWith(p, d);
      assert.equal(outcome.status, 'completed', JSON.stringify(outcome.error));
      const t = buildTimeline(new RunFold(outcome.runId, await d.store.readEvents(outcome.runId)), { price: priceFor({ currency: 'USD', models: { m: { input: 1, output: 1 } } }, model.name) });
      assert.deepEqual(t.visits.map((v) => v.rounds[0].model?.usage ?? null), [{ inputTokens: 40, outputTokens: 2 }, null, null]);
      assert.deepEqual(
        { ...t.usage, latencyMs: 0 },
        { inputTokens: 40, outputTokens: 2, latencyMs: 0, cost: null, reused: 0, tokensNotReported: { turns: 2, of: 3, reportedCost: 42 / 1e6 } },
      );
    },
  );
});

// ---------------------------------------------------------------- an answer nested too deep

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** a run of one phase (`tools`: its ops) against `reply`: its outcome, and its log read back and folded */
async function runAgainst(reply: () => Reply, tools: string[]) {
  let result: { outcome: Awaited<ReturnType<typeof runWith>>; types: string[] } | undefined;
  await withServer(reply, async (baseUrl) => {
    const d = deps(createOpenAiModel({ baseUrl, model: 'm' }));
    const outcome = await runWith(plan({ phases: { main: phase('main', { tools }) }, permittedOps: new Set(tools) }), d);
    const events = await d.store.readEvents(outcome.runId);
    buildTimeline(new RunFold(outcome.runId, events)); // the record reads back
    assert.equal(JSON.parse(JSON.stringify(events)).length, events.length);
    result = { outcome, types: events.map((e) => e.type) };
  });
  return result!;
}

test('openai: an answer nested deeper than 128 levels fails the run with model_bad_response, not a stack overflow; the log reads back', async () => {
  const cases: { name: string; reply: (depth: number) => Reply; tools: string[]; part: RegExp }[] = [
    { name: 'content', reply: (n) => completion({ content: `{"a": ${nested(n)}}` }), tools: [], part: /its finish artifact is nested/ },
    {
      name: 'tool call arguments',
      reply: (n) => completion({ content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'file__read', arguments: `{"path": ${nested(n)}}` } }] }),
      tools: ['file/read'],
      part: /the arguments of its tool call 0 \(file\/read\) are nested/,
    },
    {
      name: 'finish arguments',
      reply: (n) => completion({ content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'finish', arguments: `{"a": ${nested(n)}}` } }] }),
      tools: ['file/read'],
      part: /its finish artifact is nested/,
    },
  ];
  for (const c of cases) {
    for (const depth of [5_000, 100_000]) {
      const { outcome, types } = await runAgainst(() => c.reply(depth), c.tools);
      assert.equal(outcome.status, 'failed', `${c.name} ${depth}`);
      const error = outcome.error as { code: string; message: string };
      assert.equal(error.code, 'model_bad_response', `${c.name} ${depth}: ${error.message}`);
      assert.match(error.message, c.part);
      assert.match(error.message, new RegExp(`nested ${depth + 1} levels deep; at most 128 levels are accepted`));
      assert.match(error.message, /Ask for a flatter value/);
      assert.deepEqual(types, ['run_started', 'phase_started', 'run_failed'], 'the turn is not recorded');
    }
  }
});

test('openai: an answer nested 128 levels deep is accepted', async () => {
  const { outcome } = await runAgainst(() => completion({ content: `{"a": ${nested(127)}}` }), []);
  assert.equal(outcome.status, 'completed', JSON.stringify(outcome.error));
});
