// A model endpoint's answer is read up to a bound, and refused past it as it arrives: an endpoint (or
// what sits between it and us) sending without end held the whole of it in memory until the timeout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAiModel, MAX_RESPONSE_BYTES } from './openai';
import { rejectsWith } from './testing';
import type { ModelRequest } from '../kernel/ports';

const request: ModelRequest = {
  runId: 'run-1',
  phase: 'draft',
  round: 1,
  messages: [{ role: 'user', content: 'Write a title.' }],
  tools: [],
  responseFormat: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
};

/** a server answering each request with `answer`; what it saw of the client: whether it closed the connection early */
async function withServer(answer: (res: http.ServerResponse) => void, run: (baseUrl: string, closedEarly: () => boolean) => Promise<void>): Promise<void> {
  let closedEarly = false;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.on('close', () => (closedEarly ||= !res.writableFinished));
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await run(`http://127.0.0.1:${port}/v1`, () => closedEarly);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const MB = 1024 * 1024;

test('an answer that goes on without end is refused once past the bound, long before the timeout, and its connection closed', async () => {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  await withServer(
    (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"choices":[{"message":{"content":"');
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    },
    async (baseUrl, closedEarly) => {
      const started = performance.now();
      const model = createOpenAiModel({ baseUrl, model: 'm', timeoutMs: 20_000, maxResponseBytes: 2 * MB });
      await rejectsWith(model.invoke(request), 'model_bad_response', /passed 2097152 bytes before its end, over the 2\.0 MB read of one .*nothing of it was kept/);
      assert.ok(performance.now() - started < 15_000, 'refused as it arrived, not at the timeout');
      await new Promise((r) => setTimeout(r, 100));
      assert.ok(closedEarly(), 'the client let go of the connection');
    },
  );
});

test('an answer whose Content-Length is over the bound is refused before its body is read', async () => {
  await withServer(
    (res) => {
      // says 3 MB, sends a little, then holds the rest back: refused on the header alone, not at the timeout
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(3 * MB) });
      res.write('{"choices":');
    },
    async (baseUrl) => {
      const model = createOpenAiModel({ baseUrl, model: 'm', timeoutMs: 20_000, maxResponseBytes: 2 * MB });
      const started = performance.now();
      await rejectsWith(model.invoke(request), 'model_bad_response', /is 3145728 bytes long \(its Content-Length\)/);
      assert.ok(performance.now() - started < 15_000);
    },
  );
});

test('an answer under the bound is read whole, a long one included; the default bound leaves a 16 MB value room', async () => {
  const title = 'x'.repeat(MB);
  await withServer(
    (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify({ title }) }, finish_reason: 'stop' }] }));
    },
    async (baseUrl) => {
      const turn = await createOpenAiModel({ baseUrl, model: 'm', maxResponseBytes: 2 * MB }).invoke(request);
      assert.equal((turn.finish as { title: string }).title.length, MB);
    },
  );
  assert.ok(MAX_RESPONSE_BYTES >= 2 * 16 * MB);
});
