// A model's answer nested deeper than a run's values may be (128 levels, as a code step's reply or
// a run's input) used to be taken into the run: from model.yaml it was recorded as is, and from an
// OpenAI-compatible endpoint nested some thousands deep it failed the run as `internal: Maximum call
// stack size exceeded`. Such an answer now fails the run with model_bad_response, saying which part,
// how deep and what to do; the run's log reads back (`stagecraft events`). A model.yaml that says
// such an answer is refused where it is read, located, as any other mistake in a script.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const t = tempCliEnv('sc-answer-depth-');
after(t.cleanup);

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** a bundle of one phase with file/read, its model.yaml `script` */
function bundle(name: string, script: string): string {
  const dir = path.join(t.dir, name);
  mkdirSync(dir);
  writeFileSync(
    path.join(dir, 'skill.md'),
    `---\nname: ${name}\nentry: answer\ngraph:\n  answer: []\noutput_schema: { type: object }\nphases:\n  answer:\n    tools: [file/read]\npermissions:\n  ops: [file/read]\n  effects: [fs.read]\n---\nAnswer.\n`,
  );
  writeFileSync(path.join(dir, 'model.yaml'), script);
  return dir;
}

type Failed = { runId: string; status: string; error: { code: string; message: string } };

/** runs `dir` (`env`: the model's), expects it failed, and reads its log back */
async function failedRun(dir: string, env: NodeJS.ProcessEnv = t.env, model: string[] = []): Promise<Failed> {
  const r = await runCli(['run', dir, '--json', ...model], { env });
  assert.equal(r.code, 1, r.out + r.err);
  assert.doesNotMatch(r.out + r.err, /internal|Maximum call stack|RangeError/);
  const run = JSON.parse(r.out) as Failed;
  assert.equal(run.status, 'failed');
  const ev = await runCli(['events', run.runId, '--json'], { env: t.env });
  assert.equal(ev.code, 0, ev.err);
  const types = (JSON.parse(ev.out) as { events: { type: string }[] }).events.map((e) => e.type);
  assert.deepEqual(types, ['run_started', 'phase_started', 'run_failed']);
  const text = await runCli(['events', run.runId], { env: t.env });
  assert.equal(text.code, 0, text.err);
  return run;
}

test("run: model.yaml's finish nested 600 levels deep is a located model_script_invalid before any turn", async () => {
  const dir = bundle('deep_finish', `turns:\n  - phase: answer\n    finish:\n      a: ${nested(599)}\n`);
  const r = await runCli(['run', dir, '--json'], { env: t.env });
  assert.equal(r.code, 1, r.out + r.err);
  assert.doesNotMatch(r.out + r.err, /internal|RangeError/);
  const error = (JSON.parse(r.out) as { error: { code: string; message: string } }).error;
  assert.equal(error.code, 'model_script_invalid');
  assert.match(error.message, /model\.yaml:4:7: turn 1: `finish` is nested 600 levels deep; at most 128 levels are accepted, as for any value of a run: flatten it\. Fix the model script; no turn was served\./);
});

test('run --model openai: tool call arguments nested 100,000 levels deep fail the run with model_bad_response, not a stack overflow', async () => {
  const deep = `{"path": ${nested(100_000)}}`;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'file__read', arguments: deep } }] } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const env = { ...t.env, STAGECRAFT_MODEL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
    const run = await failedRun(bundle('deep_args', 'turns: []\n'), env, ['--model', 'openai:m']);
    assert.equal(run.error.code, 'model_bad_response');
    assert.match(run.error.message, /the arguments of its tool call 0 \(file\/read\) are nested 100001 levels deep; at most 128 levels are accepted/);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
