// The ladder inside a real run: every rung dispatched where kernel.md says,
// with the contexts and contribution effects it promises.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deps, phase, plan, playModel, runWith, stage } from './testing';
import type { StageContext } from './stage-types';
import type { Plan } from './plan';

const root = mkdtempSync(path.join(tmpdir(), 'sc-ladder-'));
writeFileSync(path.join(root, 'notes.txt'), 'The notes say 42 apples. '.repeat(20));

const readCall = { id: 'c1', op: 'file/read', args: { path: 'notes.txt' } };

function toolPlan(stages: Plan['stageProgram'], grants: string[] = ['fs.read', 'transcript.write', 'tools.gate', 'artifact.write', 'prompt.write']): Plan {
  return plan({
    phases: { main: phase('main', { tools: ['file/read'] }) },
    stageProgram: stages,
    effectGrants: new Set(grants),
    permittedOps: new Set(['file/read']),
  });
}

test("a post-tool stage's transcript edit is what the next model request contains", async () => {
  const model = playModel([{ toolCalls: [readCall] }, { finish: { ok: true } }]);
  const seen: StageContext[] = [];
  const d = deps(model, {
    fileRoot: root,
    handlers: {
      shrink: (ctx) => {
        seen.push(ctx);
        return { outcomes: { 0: { content: 'SHRUNK' } } };
      },
    },
  });
  const out = await runWith(toolPlan([stage('shrink', 'post-tool', ['transcript.write'])]), d);
  assert.equal(out.status, 'completed');
  // the stage saw the outcomes already folded into the transcript (after record_tools)
  assert.equal(seen.length, 1);
  assert.equal(seen[0].outcomes![0].status, 'ok');
  assert.match(seen[0].transcript!.at(-1)!.content, /42 apples/);
  // and the next request carries the edit, not the raw result
  const second = model.requests[1].messages;
  const toolMsg = second.find((m) => m.role === 'tool')!;
  assert.equal(toolMsg.content, 'SHRUNK');
  assert.ok(!JSON.stringify(second).includes('42 apples'));
});

test('post-tool never runs on a round that answers directly, and runs once per tool-bearing round', async () => {
  const model = playModel([{ toolCalls: [readCall, { ...readCall, id: 'c2' }] }, { toolCalls: [readCall] }, { finish: { ok: true } }]);
  const rounds: number[] = [];
  const d = deps(model, { fileRoot: root, handlers: { count: (ctx) => void rounds.push(ctx.round) } });
  const out = await runWith(toolPlan([stage('count', 'post-tool', [])]), d);
  assert.equal(out.status, 'completed');
  assert.deepEqual(rounds, [1, 2]);
  const direct = playModel([{ finish: { ok: true } }]);
  const none: number[] = [];
  await runWith(toolPlan([stage('count', 'post-tool', [])]), deps(direct, { handlers: { count: (c) => void none.push(c.round) } }));
  assert.deepEqual(none, []);
});

test('post-model is handed the whole turn, once per completed round', async () => {
  const model = playModel([{ text: 'thinking', toolCalls: [readCall] }, { text: 'done', finish: { ok: true } }]);
  const turns: unknown[] = [];
  const d = deps(model, { fileRoot: root, handlers: { watch: (ctx) => void turns.push(ctx.turn) } });
  await runWith(toolPlan([stage('watch', 'post-model', [])]), d);
  assert.equal(turns.length, 2);
  assert.deepEqual(turns[0], { text: 'thinking', toolCalls: [readCall], finish: null });
  assert.deepEqual(turns[1], { text: 'done', toolCalls: [], finish: { ok: true } });
});

test('a refused stage is never entered during a run, and the run goes on', async () => {
  let entered = 0;
  const model = playModel([{ toolCalls: [readCall] }, { finish: { ok: true } }]);
  const d = deps(model, { fileRoot: root, handlers: { budget: () => void entered++ } });
  const out = await runWith(toolPlan([stage('budget', 'post-tool', ['transcript.write'])], ['fs.read']), d);
  assert.equal(out.status, 'completed');
  assert.equal(entered, 0);
  const traces = await d.store.readTraces(out.runId);
  assert.equal(traces.length, 1);
  assert.equal(traces[0].status, 'refused');
  assert.deepEqual(traces[0].effects.missing, ['transcript.write']);
});

test('a raise ends the turn: the run fails with stage_crashed and the model is not called again', async () => {
  const model = playModel([{ toolCalls: [readCall] }, { finish: { ok: true } }]);
  const d = deps(model, {
    fileRoot: root,
    handlers: {
      broken: () => {
        throw new Error('policy bug');
      },
    },
  });
  const out = await runWith(toolPlan([stage('broken', 'post-tool', [])]), d);
  assert.equal(out.status, 'failed');
  assert.equal(out.error!.code, 'stage_crashed');
  assert.equal(out.error!.stage, 'broken');
  assert.equal(out.error!.rung, 'post-tool');
  assert.equal(model.requests.length, 1);
  assert.equal(out.report!.outcome, 'failed');
  assert.equal(out.report!.failed_stage!.stage, 'broken');
  const traces = await d.store.readTraces(out.runId);
  assert.equal(traces[0].status, 'failed');
  assert.match(traces[0].error!.stack!, /policy bug/);
});

test('prompt-assembly contributions are appended to the request; pre-tool can deny and rewrite args; finalize patches the artifact', async () => {
  const model = playModel([{ toolCalls: [readCall, { id: 'c2', op: 'file/read', args: { path: 'missing.txt' } }] }, { finish: { title: 'T' } }]);
  const d = deps(model, {
    fileRoot: root,
    handlers: {
      hint: () => ({ system: 'Be brief.' }),
      gate: () => ({ deny: { 0: 'not today' }, args: { 1: { path: 'notes.txt' } } }),
      stamp: () => ({ artifact: { stamped: true } }),
    },
  });
  const out = await runWith(
    toolPlan([stage('hint', 'prompt-assembly', ['prompt.write']), stage('gate', 'pre-tool', ['tools.gate']), stage('stamp', 'finalize', ['artifact.write'])]),
    d,
  );
  assert.equal(out.status, 'completed');
  assert.deepEqual(out.output, { title: 'T', stamped: true });
  const first = model.requests[0].messages;
  assert.deepEqual(first.at(-1), { role: 'system', content: 'Be brief.' });
  const tools = model.requests[1].messages.filter((m) => m.role === 'tool');
  assert.equal(tools[0].content, 'denied: not today');
  assert.match(tools[1].content, /42 apples/);
  assert.equal(out.report!.outcome, 'blocked');
  assert.match(out.report!.block_reason!, /not today/);
});

test('builtin tool_result_budget cuts long results and keeps the full text in the workspace', async () => {
  const model = playModel([{ toolCalls: [readCall] }, { finish: { ok: true } }]);
  const d = deps(model, { fileRoot: root });
  const p = toolPlan([{ ...stage('budget', 'post-tool', ['transcript.write']), binding: { kind: 'builtin', name: 'tool_result_budget' }, with: { max_chars: 50 } }]);
  const out = await runWith(p, d);
  assert.equal(out.status, 'completed');
  const toolMsg = model.requests[1].messages.find((m) => m.role === 'tool')!;
  assert.ok(toolMsg.content.length < 200);
  assert.match(toolMsg.content, /cut to 50 of 500 characters/);
  const kept = await d.store.readArtifact(out.runId, 'tool-results/c1.txt');
  assert.equal(kept!.content, 'The notes say 42 apples. '.repeat(20));
});

test('builtin unverified_numbers flags numbers in the finish artifact that no tool outcome contains', async () => {
  const model = playModel([{ toolCalls: [readCall] }, { finish: { apples: 42, pears: 17 } }]);
  const d = deps(model, { fileRoot: root });
  const p = toolPlan([{ ...stage('facts', 'post-model'), binding: { kind: 'builtin', name: 'unverified_numbers' } }]);
  const out = await runWith(p, d);
  const traces = await d.store.readTraces(out.runId);
  const last = traces.at(-1)!;
  const annotations = (last.contribution as { annotations: { message: string }[] }).annotations;
  assert.equal(annotations.length, 1);
  assert.match(annotations[0].message, /^17 at pears/);
  assert.equal(out.report!.annotations, 1);
});

test('builtin pii_redact removes e-mails and phone numbers from the finish artifact', async () => {
  const model = playModel([{ finish: { text: 'Mail jane.doe@example.com or call +1 415-555-0132.' } }]);
  const p = toolPlan([{ ...stage('pii', 'finalize', ['artifact.write']), binding: { kind: 'builtin', name: 'pii_redact' } }]);
  const out = await runWith(p, deps(model));
  assert.deepEqual(out.output, { text: 'Mail [redacted] or call [redacted].' });
});

test('builtin pii_redact redacts what is under a __proto__ key too, and keeps the key', async () => {
  // JSON.parse (a model's answer, a fork's edit) makes `__proto__` an own key: assigned as one, it set a
  // prototype instead, so the address under it reached the caller unredacted (or, deeper, the key was lost)
  const finish = JSON.parse('{"text":"ok","__proto__":{"mail":"jane.doe@example.com"},"deep":{"__proto__":{"mail":"ops@example.org"}}}');
  const model = playModel([{ finish }]);
  const p = toolPlan([{ ...stage('pii', 'finalize', ['artifact.write']), binding: { kind: 'builtin', name: 'pii_redact' } }]);
  const out = await runWith(p, deps(model));
  assert.deepEqual(out.output, JSON.parse('{"text":"ok","__proto__":{"mail":"[redacted]"},"deep":{"__proto__":{"mail":"[redacted]"}}}'));
  assert.equal(JSON.stringify(out.output), '{"text":"ok","__proto__":{"mail":"[redacted]"},"deep":{"__proto__":{"mail":"[redacted]"}}}');
});
