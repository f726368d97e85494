// `stagecraft compare` of runs whose model endpoint answered without `usage`: the tokens line keeps
// the reported turns' figures, and a line under it says, per side, how many turns did not report —
// never 0 tokens as if none were used. On the embedded store, against a local chat-completions
// server that reports usage on its first answer only.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { dir, env, cleanup } = tempCliEnv('sc-compare-tokens-');
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

const SKILL = `---
name: answer
description: One phase, one answer
entry: main
graph:
  main: []
output_schema:
  type: object
  properties:
    n: { type: integer }
  required: [n]
---
You answer.

## main
Answer with {"n": 1}.
`;

async function run(): Promise<string> {
  const bundle = path.join(dir, 'answer');
  mkdirSync(bundle, { recursive: true });
  writeFileSync(path.join(bundle, 'skill.md'), SKILL);
  const r = await runCli(['run', bundle, '--model', 'openai:mock', '--json'], { env, stdin: '{}' });
  assert.equal(r.code, 0, r.out + r.err);
  return JSON.parse(r.out).runId as string;
}

test('compare says how many turns did not report their tokens, beside the reported figures', async () => {
  const a = await run(); // the endpoint's first answer: usage reported
  const b = await run(); // none
  const text = await runCli(['compare', a, b], { env });
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /^tokens in \/ out\s+11 \/ 3\s+0 \/ 0$/m);
  assert.match(text.out, /^\s+B: tokens not reported by the model endpoint$/m);
  assert.doesNotMatch(text.out, /A: tokens not reported/);
  const json = JSON.parse((await runCli(['compare', a, b, '--json'], { env })).out);
  assert.deepEqual([json.a.tokensNotReported, json.b.tokensNotReported], [undefined, { turns: 1, of: 1 }]);
  const model = (side: 'a' | 'b') => json.rows.find((r: { kind: string }) => r.kind === 'model')[side];
  assert.deepEqual([model('a').tokens, model('a').tokensNotReported, model('b').tokens, model('b').tokensNotReported], [{ input: 11, output: 3 }, undefined, null, true]);
});
