// Runs as OpenTelemetry traces, received by a local OTLP/HTTP receiver: the
// research_brief example from the CLI over http/protobuf and over http/json
// gives the same tree (names, parent links, GenAI attributes, statuses); a
// failing run marks the refused stage (naming the missing grant), the crashed
// stage, its phase and the run as errors; a run driven by a `stagecraft
// worker` is sent by the worker; a short CLI run has sent its spans by the time
// it exits; and with no endpoint nothing is sent and no OpenTelemetry module is
// even loaded.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './testing/otlp-receiver';
import { createTestDatabase, type TestDatabase } from '../store/testing/pg-test-db';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const BIN = path.join(ROOT, 'bin/stagecraft.mjs');
const FAILING = path.join(ROOT, 'lib/telemetry/testing/failing');

let receiver: OtlpReceiver;
const dirs: string[] = [];
before(async () => {
  receiver = await startOtlpReceiver();
});
after(async () => {
  await receiver?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'sc-otlp-'));
  dirs.push(d);
  return d;
}

type Result = { code: number | null; out: string; err: string };

function cli(args: string[], env: Record<string, string | undefined>, nodeArgs: string[] = []): Promise<Result> {
  return new Promise((resolve, reject) => {
    const merged: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: '', ...env };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete merged[k];
    const p = spawn(process.execPath, [...nodeArgs, BIN, ...args], { cwd: ROOT, env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('exit', (code) => resolve({ code, out, err }));
  });
}

const otlpEnv = (protocol: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
  OTEL_SERVICE_NAME: 'stagecraft-under-test',
  STAGECRAFT_DATA_DIR: tempDir(),
});

/** The spans of one trace as an indented tree of names, children in the order they started. */
function tree(spans: ReceivedSpan[]): string {
  const byParent = new Map<string, ReceivedSpan[]>();
  for (const s of spans) byParent.set(s.parentSpanId, [...(byParent.get(s.parentSpanId) ?? []), s]);
  const order = (a: ReceivedSpan, b: ReceivedSpan) => (a.startNs === b.startNs ? Number(a.attributes['stagecraft.seq'] ?? 0) - Number(b.attributes['stagecraft.seq'] ?? 0) : a.startNs < b.startNs ? -1 : 1);
  const lines: string[] = [];
  const walk = (s: ReceivedSpan, depth: number) => {
    lines.push(`${'  '.repeat(depth)}${s.name}`);
    for (const c of (byParent.get(s.spanId) ?? []).sort(order)) walk(c, depth + 1);
  };
  for (const r of byParent.get('') ?? []) walk(r, 0);
  return lines.join('\n');
}

function traceOf(runId: string): ReceivedSpan[] {
  const spans = receiver.spans().filter((s) => s.attributes['stagecraft.run.id'] === runId);
  assert.equal(spans.length, 1, `one root span for ${runId}`);
  return receiver.spans().filter((s) => s.traceId === spans[0].traceId);
}

const RESEARCH_BRIEF_TREE = `invoke_agent research_brief
  phase gather
    chat model.yaml
      stage house_style
      stage fact_check
      stage path_guard
      execute_tool file/read
      execute_tool file/read
      stage result_budget
    chat model.yaml
      stage house_style
      stage fact_check
      stage redact
  phase write
    chat model.yaml
      stage house_style
      stage fact_check
      stage redact`;

const SPAN_KIND_CLIENT = 3;
const STATUS_OK = 1;
const STATUS_ERROR = 2;

function checkResearchBrief(spans: ReceivedSpan[], runId: string): void {
  assert.equal(tree(spans), RESEARCH_BRIEF_TREE);
  const ids = new Set(spans.map((s) => s.spanId));
  for (const s of spans) if (s.parentSpanId) assert.ok(ids.has(s.parentSpanId), `${s.name}: its parent is in the trace`);
  const root = spans.find((s) => !s.parentSpanId)!;
  assert.equal(root.resource['service.name'], 'stagecraft-under-test');
  assert.equal(root.scope, 'stagecraft');
  assert.deepEqual(
    { op: root.attributes['gen_ai.operation.name'], agent: root.attributes['gen_ai.agent.name'], conversation: root.attributes['gen_ai.conversation.id'], status: root.status.code },
    { op: 'invoke_agent', agent: 'research_brief', conversation: runId, status: STATUS_OK },
  );
  assert.equal(root.attributes['stagecraft.report.outcome'], 'blocked');
  const chats = spans.filter((s) => s.name.startsWith('chat '));
  for (const c of chats) {
    assert.equal(c.kind, SPAN_KIND_CLIENT);
    assert.equal(c.attributes['gen_ai.operation.name'], 'chat');
    assert.equal(c.attributes['gen_ai.provider.name'], 'scripted');
    assert.equal(c.attributes['gen_ai.request.model'], 'model.yaml');
  }
  assert.deepEqual(chats.map((c) => c.attributes['gen_ai.response.finish_reasons']), [['tool_calls'], ['stop'], ['stop']]);
  const tools = spans.filter((s) => s.name.startsWith('execute_tool'));
  assert.deepEqual(tools.map((t) => [t.attributes['gen_ai.operation.name'], t.attributes['gen_ai.tool.name'], t.attributes['gen_ai.tool.call.id']]), [
    ['execute_tool', 'file/read', 'call_1_0'],
    ['execute_tool', 'file/read', 'call_1_1'],
  ]);
  const guard = spans.find((s) => s.name === 'stage path_guard')!;
  assert.deepEqual([guard.attributes['stagecraft.stage.rung'], guard.attributes['stagecraft.stage.effects.granted'], guard.status.code], ['pre-tool', ['tools.gate'], 0]);
  for (const s of spans) assert.ok(s.endNs >= s.startNs, `${s.name}: ends after it starts`);
}

test('research_brief from the CLI over http/protobuf: the span tree, GenAI attributes, statuses — sent before the CLI exits', async () => {
  const r = await cli(['run', 'examples/research_brief', '--input', 'examples/research_brief/input.json', '--json'], otlpEnv('http/protobuf'));
  assert.equal(r.code, 0, r.err);
  const runId = JSON.parse(r.out).runId as string;
  assert.ok(receiver.requests.some((q) => q.contentType.includes('protobuf')), 'a protobuf request');
  checkResearchBrief(traceOf(runId), runId);
});

test('research_brief over http/json: the same tree', async () => {
  const r = await cli(['run', 'examples/research_brief', '--input', 'examples/research_brief/input.json', '--json'], otlpEnv('http/json'));
  assert.equal(r.code, 0, r.err);
  const runId = JSON.parse(r.out).runId as string;
  assert.ok(receiver.requests.some((q) => q.contentType.includes('json')), 'a JSON request');
  checkResearchBrief(traceOf(runId), runId);
});

test('a failing run: the refused stage names its missing grant, the crashed stage, its phase and the run are errors', async () => {
  const r = await cli(['run', FAILING, '--json'], otlpEnv('http/protobuf'));
  assert.equal(r.code, 1, r.err);
  const runId = JSON.parse(r.out).runId as string;
  const spans = traceOf(runId);
  assert.equal(tree(spans), ['invoke_agent failing_probe', '  phase look', '    chat model.yaml', '      execute_tool file/read', '      stage scribe', '      stage explode'].join('\n'));
  const by = (name: string) => spans.find((s) => s.name === name)!;
  const refused = by('stage scribe');
  assert.equal(refused.status.code, STATUS_ERROR);
  assert.match(refused.status.message, /transcript\.write/);
  assert.equal(refused.attributes['stagecraft.stage.status'], 'refused');
  assert.deepEqual(refused.attributes['stagecraft.stage.effects.missing'], ['transcript.write']);
  const crashed = by('stage explode');
  assert.equal(crashed.status.code, STATUS_ERROR);
  assert.match(crashed.status.message, /blew up on purpose/);
  assert.equal(by('phase look').status.code, STATUS_ERROR);
  const root = by('invoke_agent failing_probe');
  assert.equal(root.status.code, STATUS_ERROR);
  assert.match(root.status.message, /explode/);
  assert.equal(root.attributes['stagecraft.run.status'], 'failed');
  assert.equal(by('execute_tool file/read').status.code, 0);
});

test('without an endpoint: nothing is sent, and no OpenTelemetry module is loaded', async () => {
  const dir = tempDir();
  const hook = path.join(dir, 'hook.mjs');
  const log = path.join(dir, 'loaded.txt');
  writeFileSync(log, '');
  // a module hook that notes every @opentelemetry module the process resolves
  writeFileSync(
    path.join(dir, 'resolve.mjs'),
    `import { appendFileSync } from 'node:fs';\nexport async function resolve(spec, ctx, next) { if (spec.includes('@opentelemetry/')) appendFileSync(${JSON.stringify(log)}, spec + '\\n'); return next(spec, ctx); }\n`,
  );
  writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${path.join(dir, 'resolve.mjs')}`)});\n`);
  const before = receiver.requests.length;
  const env = { STAGECRAFT_DATA_DIR: tempDir(), OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined };
  const r = await cli(['run', 'examples/research_brief', '--input', 'examples/research_brief/input.json', '--json'], env, ['--import', hook]);
  assert.equal(r.code, 0, r.err);
  assert.equal(receiver.requests.length, before, 'nothing was sent');
  assert.equal(readFileSync(log, 'utf8'), '', 'no @opentelemetry module was loaded');
  // the hook does see them when export is on (so the check above can fail)
  const on = await cli(['run', 'examples/research_brief', '--input', 'examples/research_brief/input.json', '--json'], { ...otlpEnv('http/protobuf') }, ['--import', hook]);
  assert.equal(on.code, 0, on.err);
  assert.match(readFileSync(log, 'utf8'), /@opentelemetry\/exporter-trace-otlp-proto/);
});

test('a run driven by a stagecraft worker is sent by the worker, which says so on its root span', async () => {
  const db: TestDatabase = await createTestDatabase();
  try {
    const env = { ...otlpEnv('http/protobuf'), DATABASE_URL: db.url, STAGECRAFT_WORKERS: 'external' };
    const q = await cli(['run', 'examples/research_brief', '--input', 'examples/research_brief/input.json', '--queue', '--json'], env);
    assert.equal(q.code, 0, q.err);
    const { runId, status } = JSON.parse(q.out) as { runId: string; status: string };
    assert.equal(status, 'queued');
    const worker = spawn(process.execPath, [BIN, 'worker', '--concurrency', '2'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    worker.stderr.on('data', (d) => (err += d));
    const deadline = Date.now() + 60_000;
    while (!receiver.spans().some((s) => s.attributes['stagecraft.run.id'] === runId)) {
      assert.ok(Date.now() < deadline, `no spans from the worker within 60 s:\n${err}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
    const spans = traceOf(runId);
    checkResearchBrief(spans, runId);
    const root = spans.find((s) => !s.parentSpanId)!;
    assert.equal(root.attributes['stagecraft.driver.kind'], 'worker');
    assert.match(String(root.attributes['stagecraft.driver.worker']), /\S+-\d+-[0-9a-f]{6}$/);
    assert.equal(typeof root.attributes['stagecraft.run.queued_ms'], 'number');
  } finally {
    await db.drop();
  }
});
