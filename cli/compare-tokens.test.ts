// `stagecraft compare` of runs whose model endpoint answered without `usage`: the tokens line keeps
// the reported turns' figures, and a line under it says, per side, how many turns did not report —
// never 0 tokens as if none were used. On the embedded store, against a local chat-completions
// server that reports usage on its first answer only.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { env, cleanup } = tempCliEnv('sc-compare-tokens-');
let answered = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const usage = ++answered === 1 ? { usage: { prompt_tokens: 11, completion_tokens: 3 } } : {};
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: '{"n": 1}' }, finish_reason: 'stop' }], ...usage }));
  });
});
before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env.STAGECRAFT_MODEL_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  cleanup();
});

/** a run of three phases of one answer each (the browser test's skill) */
async function run(): Promise<string> {
  const r = await runCli(['run', 'e2e/fixtures/tokens_unreported', '--model', 'openai:mock', '--json'], { env, stdin: '{}' });
  assert.equal(r.code, 0, r.out + r.err);
  return JSON.parse(r.out).runId as string;
}

test('compare says how many turns did not report their tokens, beside the reported figures', async () => {
  const a = await run(); // the endpoint's first answer reported usage: 1 of A's 3 turns
  const b = await run(); // none of B's
  const text = await runCli(['compare', a, b], { env });
  assert.equal(text.code, 0, text.err);
  // B has no figure to give: not "0 / 0", as if it used none
  assert.match(text.out, /^tokens in \/ out\s+11 \/ 3\s+not reported$/m);
  assert.match(text.out, /^\s+A: tokens not reported by the model endpoint for 2 of 3 turns\n\s+B: tokens not reported by the model endpoint for all 3 turns$/m);
  const json = JSON.parse((await runCli(['compare', a, b, '--json'], { env })).out);
  assert.deepEqual([json.a.tokensNotReported, json.b.tokensNotReported], [{ turns: 2, of: 3 }, { turns: 3, of: 3 }]);
  const model = (side: 'a' | 'b') => json.rows.map((r: Record<'a' | 'b', { tokens: unknown; tokensNotReported?: true }>) => [r[side].tokens, r[side].tokensNotReported ?? false]);
  assert.deepEqual(model('a'), [[{ input: 11, output: 3 }, false], [null, true], [null, true]]);
  assert.deepEqual(model('b'), [[null, true], [null, true], [null, true]]);
});
