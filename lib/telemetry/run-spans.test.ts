// The span tree as a pure function of the log: a run crashed at every commit
// boundary and resumed maps to the same tree as an uninterrupted one (names,
// parents, statuses, attributes — ids and times aside); ids are derived from
// the run; a refused stage names its missing grant; a failed run and the phase
// it failed in are errors; an iterate's inner steps sit under it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deps, phase, plan, post, stage } from '../kernel/testing';
import { crashAt, SimulatedCrash, FAULT_POINTS } from '../kernel/faults';
import { resumeRun, startRun } from '../kernel/runner';
import { MemoryStore } from '../kernel/memory-store';
import type { Plan, StepSpec } from '../kernel/plan';
import type { ModelPort, ModelTurn } from '../kernel/ports';
import { modelAttributes, rootSpanIdOf, runSpans, traceIdOf, type SpanData } from './run-spans';

const root = mkdtempSync(path.join(tmpdir(), 'sc-spans-'));
writeFileSync(path.join(root, 'in.txt'), 'source text');
const base = { onError: 'fail' as const, emptyValue: null, line: 1 };

const TURNS: Partial<ModelTurn>[] = [
  { toolCalls: [{ id: 'c1', op: 'file/read', args: { path: 'in.txt' } }], usage: { inputTokens: 12, outputTokens: 3 } },
  { finish: { items: [{ n: 1 }, { n: 2 }] }, usage: { inputTokens: 20, outputTokens: 7 } },
];
const model: ModelPort = { name: 'openai:gpt-test', invoke: async (r) => ({ text: '', toolCalls: [], finish: null, ...TURNS[r.round - 1] }) as ModelTurn };

function skill(): Plan {
  const validate = (index: number): StepSpec => ({ ...base, index, type: 'validate', schema: { type: 'object' } }) as StepSpec;
  return plan({
    phases: { draft: phase('draft', { tools: ['file/read'] }) },
    permittedOps: new Set(['file/read']),
    effectGrants: new Set(['fs.read']),
    stageProgram: [stage('unverified_numbers', 'post-model'), stage('tool_result_budget', 'post-tool', ['transcript.write'], { with: { max_chars: 50 } })],
    postprocessor: post([validate(0), { ...base, index: 1, type: 'iterate', over: 'items', steps: [validate(0)], into: 'checked' } as StepSpec, validate(2)]),
  });
}

/**
 * The tree without ids and times: what must not depend on how the run was driven. A world read
 * re-executed on resume is recorded (and drawn) once more, as the same span: counted once here.
 */
function shape(spans: SpanData[]): string[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const pathOf = (s: SpanData): string => (s.parentSpanId ? `${pathOf(byId.get(s.parentSpanId)!)} > ${s.name}` : s.name);
  const stable = (a: SpanData['attributes']) => Object.entries(a).filter(([k]) => !['stagecraft.seq', 'stagecraft.run.id', 'gen_ai.conversation.id'].includes(k) && !k.startsWith('stagecraft.driver'));
  return [...new Set(spans.map((s) => `${pathOf(s)} ${s.status.code}${s.status.message ? `(${s.status.message})` : ''} ${JSON.stringify(stable(s.attributes))}`))].sort();
}

async function spansOf(store: MemoryStore, runId: string): Promise<SpanData[]> {
  return runSpans((await store.getRun(runId))!, await store.readEvents(runId), await store.readTraces(runId));
}

test('the tree of a run: root, phase visit, model rounds with their stages and tool calls, the postprocessor with iterate nesting', async () => {
  const d = deps(model, { fileRoot: root });
  const o = await startRun(skill(), d, { input: {}, skillText: '' });
  assert.equal(o.status, 'completed');
  const spans = await spansOf(d.store, o.runId);
  assert.ok(spans.every((s) => s.traceId === traceIdOf(o.runId)));
  assert.equal(spans.find((s) => s.parentSpanId === null)!.spanId, rootSpanIdOf(o.runId));
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const parentName = (name: string) => byId.get(spans.find((s) => s.name === name)!.parentSpanId!)!.name;
  assert.equal(parentName('phase draft'), 'invoke_agent test_skill');
  assert.equal(parentName('chat gpt-test'), 'phase draft');
  assert.equal(parentName('execute_tool file/read'), 'chat gpt-test');
  assert.equal(parentName('stage tool_result_budget'), 'chat gpt-test');
  assert.equal(parentName('postprocessor'), 'invoke_agent test_skill');
  assert.equal(parentName('step iterate'), 'postprocessor');
  // the iterate's inner validate runs (one per item) sit under it
  assert.equal(spans.filter((s) => s.name === 'step validate' && byId.get(s.parentSpanId!)!.name === 'step iterate').length, 2);
  const chats = spans.filter((s) => s.name === 'chat gpt-test');
  assert.deepEqual(
    chats.map((c) => [c.attributes['gen_ai.usage.input_tokens'], c.attributes['gen_ai.usage.output_tokens'], c.attributes['gen_ai.response.finish_reasons']]),
    [
      [12, 3, ['tool_calls']],
      [20, 7, ['stop']],
    ],
  );
  assert.equal(chats[0].attributes['gen_ai.provider.name'], 'openai');
  const rootSpan = spans.find((s) => s.parentSpanId === null)!;
  assert.equal(rootSpan.status.code, 'ok');
  for (const s of spans) {
    assert.ok(s.endMs >= s.startMs, s.name);
    if (s.parentSpanId) {
      const p = byId.get(s.parentSpanId)!;
      assert.ok(p.startMs <= s.startMs && s.endMs <= p.endMs, `${s.name} lies within ${p.name}`);
    }
  }
});

test('a run crashed at any commit boundary and resumed exports the same tree as an uninterrupted one', async () => {
  const d0 = deps(model, { fileRoot: root });
  const o0 = await startRun(skill(), d0, { input: {}, skillText: '' });
  const want = shape(await spansOf(d0.store, o0.runId));
  for (const point of FAULT_POINTS) {
    for (const n of [1, 2, 3]) {
      const store = new MemoryStore();
      const runId = `run_${point}_${n}`;
      try {
        await startRun(skill(), deps(model, { store, fileRoot: root, faults: crashAt(point, n) }), { input: {}, skillText: '', runId });
      } catch (e) {
        if (!(e instanceof SimulatedCrash)) throw e;
        await (await store.claimRun(runId))?.release(); // the crashed process's claim died with it
        // a crash before the run's first commit leaves no run (nothing of it acted on the world): it is started again
        const again = (await store.getRun(runId))
          ? await resumeRun(runId, () => skill(), deps(model, { store, fileRoot: root }))
          : await startRun(skill(), deps(model, { store, fileRoot: root }), { input: {}, skillText: '', runId });
        assert.equal(again.status, 'completed', `${point}:${n}`);
      }
      const spans = await spansOf(store, runId);
      assert.deepEqual(shape(spans), want, `${point}:${n}`);
      if (spans.length) assert.equal(spans.filter((s) => s.parentSpanId === null).length, 1);
    }
  }
});

test('a refused stage names the grant it lacked; a failed run fails its phase and its root', async () => {
  const p = plan({
    phases: { draft: phase('draft') },
    // the post-model stage asks for artifact.write, which the skill does not grant
    stageProgram: [stage('pii_redact', 'post-model', ['artifact.write'])],
  });
  const failing: ModelPort = { name: 'scripted:/x/model.yaml', invoke: async () => ({ text: '', toolCalls: [], finish: { wrong: true } }) };
  const p2 = { ...p, phases: { draft: phase('draft', { outputSchema: { type: 'object', required: ['answer'] }, maxRounds: 1 }) } };
  const d = deps(failing);
  const o = await startRun(p2, d, { input: {}, skillText: '' });
  assert.equal(o.status, 'failed');
  const spans = await spansOf(d.store, o.runId);
  const refused = spans.find((s) => s.name === 'stage pii_redact')!;
  assert.equal(refused.status.code, 'error');
  assert.match(refused.status.message!, /artifact\.write/);
  assert.deepEqual(refused.attributes['stagecraft.stage.effects.missing'], ['artifact.write']);
  assert.equal(spans.find((s) => s.name === 'phase draft')!.status.code, 'error');
  const rootSpan = spans.find((s) => s.parentSpanId === null)!;
  assert.equal(rootSpan.status.code, 'error');
  assert.match(rootSpan.status.message!, /output schema|answer/);
  assert.deepEqual(modelAttributes('scripted:/x/model.yaml'), { 'gen_ai.provider.name': 'scripted', 'gen_ai.request.model': 'model.yaml' });
});

test('a run with no events has no spans; a child run links to its parent run', () => {
  const run = { id: 'r.child', skillName: 's', skillHash: 'h', skillText: '', bundleDir: '/', skillVersionId: null, input: {}, model: 'm', status: 'completed' as const, output: null, error: null, report: null, parentRunId: 'r', kind: 'run' as const, forkPoint: null, createdAt: 1, updatedAt: 2 };
  assert.deepEqual(runSpans(run, [], []), []);
  const spans = runSpans(run, [{ runId: 'r.child', seq: 1, type: 'run_started', at: 5, data: {} }, { runId: 'r.child', seq: 2, type: 'run_completed', at: 9, data: {} }], []);
  assert.deepEqual(spans[0].links, [{ traceId: traceIdOf('r'), spanId: rootSpanIdOf('r'), attributes: { 'stagecraft.link': 'parent_run' } }]);
});
