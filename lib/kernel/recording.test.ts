// Replay and fork on the in-memory store, counted: which steps a derived run
// answers from its parent's recording and which it really runs — a counting
// model and a counting sandbox double say how often each was asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deps, phase, plan, post, stage } from './testing';
import { crashAt, SimulatedCrash } from './faults';
import { resumeRun, startRun, type RunOutcome } from './runner';
import { MemoryStore } from './memory-store';
import type { Plan, StepSpec } from './plan';
import type { CodeCall, CodeSandbox, ModelPort, ModelTurn, RunEvent } from './ports';
import type { Json, JsonObject } from './json';
import { compareLogs } from './compare';
import { forkPointOf, setAtPath } from './fork-edits';
import { probeForkPoint } from './fork-probe';
import { ForkPointError, ModelError } from './errors';
import type { Derivation } from './recording';
import { EVENT } from './events';
import { RunFold, chainValueAt, currentValue } from './fold';
import { rebuildStep } from './rebuild';
import { stateAt } from './fold-state';
import { buildTimeline } from './timeline';

const root = mkdtempSync(path.join(tmpdir(), 'sc-recording-'));
writeFileSync(path.join(root, 'notes.txt'), 'the notes');
const base = { onError: 'fail' as const, emptyValue: null, line: 1 };

/** Counts every call per function, keeps what each was given; `add_<fn>` adds 1 to `n` */
function countingSandbox() {
  const calls: CodeCall[] = [];
  const count = (fn: string) => calls.filter((c) => c.exportName === fn).length;
  const sandbox: CodeSandbox = {
    async call(c) {
      calls.push(structuredClone(c));
      const v = c.input as JsonObject;
      return { [`${c.exportName}_saw`]: Number(v.n ?? 0), n: Number(v.n ?? 0) + (c.exportName.startsWith('ten') ? 10 : 1) };
    },
    async close() {},
  };
  return { sandbox, calls, count };
}

const turns: Record<string, Partial<ModelTurn>[]> = {
  gather: [{ toolCalls: [{ id: 'c1', op: 'file/read', args: { path: 'notes.txt' } }] }, { finish: { n: 1, facts: ['a'] } }],
  write: [{ finish: { n: 2, title: 'T' } }],
};

function countingModel(counter: { calls: string[] }, name = 'count', script = turns): ModelPort {
  return {
    name,
    async invoke(r) {
      counter.calls.push(`${r.phase}/r${r.round}`);
      const t = script[r.phase]?.[r.round - 1];
      if (!t) throw new Error(`no turn for ${r.phase} r${r.round}`);
      return { text: '', toolCalls: [], finish: null, ...structuredClone(t) } as ModelTurn;
    },
  };
}

const code = (index: number, fn: string, pure = false): StepSpec =>
  ({ ...base, index, type: 'node', module: './x.mjs', modulePath: '/x.mjs', function: fn, timeoutMs: 1000, pure }) as StepSpec;

function skill(over: { steps?: StepSpec[]; prompt?: string; stages?: boolean; writePre?: StepSpec[] } = {}): Plan {
  return plan({
    phases: {
      gather: phase('gather', { tools: ['file/read'], successors: ['write'], isTerminal: false, prompt: over.prompt ?? 'gather' }),
      write: phase('write', { successors: [], isTerminal: true, outputSchema: { type: 'object', required: ['n'] }, ...(over.writePre ? { preprocessor: post(over.writePre) } : {}) }),
    },
    permittedOps: new Set(['file/read']),
    effectGrants: new Set(['fs.read']),
    stageProgram: over.stages === false ? [] : [stage('unverified_numbers', 'post-model')],
    postprocessor: post(over.steps ?? [code(0, 'one'), code(1, 'two'), code(2, 'three')], { type: 'object', required: ['n'] }),
  });
}

type Recorded = { store: MemoryStore; runId: string; events: RunEvent[]; outcome: RunOutcome };

async function record(p: Plan = skill()): Promise<Recorded> {
  const store = new MemoryStore();
  const { sandbox } = countingSandbox();
  const outcome = await startRun(p, deps(countingModel({ calls: [] }), { store, sandbox, fileRoot: root }), { input: { q: 'x' }, skillText: '', runId: 'parent' });
  assert.equal(outcome.status, 'completed', JSON.stringify(outcome.error));
  return { store, runId: 'parent', events: await store.readEvents('parent'), outcome };
}

/** Derives a run from `rec` in the same store; counts what it asked of the model and the sandbox. */
async function derive(rec: Recorded, p: Plan, derivation: Omit<Derivation, 'parentRunId' | 'events'>, model?: ModelPort) {
  const modelCalls = { calls: [] as string[] };
  const sb = countingSandbox();
  const emptyDir = mkdtempSync(path.join(tmpdir(), 'sc-scratch-'));
  const outcome = await startRun(p, deps(model ?? countingModel(modelCalls), { store: rec.store, sandbox: sb.sandbox, fileRoot: emptyDir }), {
    input: { q: 'x' },
    skillText: '',
    derivation: { ...derivation, parentRunId: rec.runId, events: rec.events },
  });
  const events = await rec.store.readEvents(outcome.runId);
  return { outcome, events, modelCalls: modelCalls.calls, sb, run: (await rec.store.getRun(outcome.runId))! };
}

const stepOf = (events: RunEvent[], position: string) => events.find((e) => e.type === EVENT.stepCompleted && e.data.position === position);

test('replay of an unchanged skill: identical; no model call, world reads from the recording, processor steps really run', async () => {
  const rec = await record();
  const r = await derive(rec, skill(), { mode: 'replay' });
  assert.equal(r.outcome.status, 'completed');
  assert.deepEqual(r.outcome.output, rec.outcome.output);
  assert.deepEqual(r.modelCalls, [], 'no model is called');
  // the scratch workspace has no notes.txt: the read was answered from the recording
  assert.deepEqual(stepOf(r.events, 'gather/r1/tool/0')?.data.output, 'the notes');
  assert.deepEqual(stepOf(r.events, 'gather/r1/tool/0')?.data.recorded, { runId: 'parent', seq: stepOf(rec.events, 'gather/r1/tool/0')!.seq });
  assert.deepEqual(['one', 'two', 'three'].map(r.sb.count), [1, 1, 1], 'each processor step ran once');
  assert.equal(stepOf(r.events, '__post__/0')?.data.recorded, undefined, 'a step that ran is not marked recorded');
  assert.equal(r.run.kind, 'replay');
  assert.equal(r.run.parentRunId, 'parent');
  assert.equal(r.run.forkPoint, null);
  const cmp = compareLogs(rec.events, r.events);
  assert.deepEqual(cmp.divergences, []);
  assert.ok(cmp.rows.length >= 10 && cmp.rows.every((row) => row.change === 'same'));
});

test('replay with a changed postprocessor step: the divergence is at that step, first, with the diff', async () => {
  const rec = await record();
  const r = await derive(rec, skill({ steps: [code(0, 'one'), code(1, 'ten_two'), code(2, 'three')] }), { mode: 'replay' });
  assert.equal(r.outcome.status, 'completed');
  const cmp = compareLogs(rec.events, r.events);
  assert.deepEqual(
    cmp.divergences.map((d) => [d.position, d.change]),
    [
      ['__post__/1', 'output'],
      ['__post__/2', 'output'],
      ['__post__', 'outcome'],
    ],
  );
  const first = cmp.divergences[0];
  assert.deepEqual(first.a?.value, { two_saw: 3, n: 4 });
  assert.deepEqual(first.b?.value, { ten_two_saw: 3, n: 13 });
  assert.deepEqual((first.diff as JsonObject).n, [4, 13]);
});

test('replay with a changed prompt: stops at the first model turn, named as a changed request; nothing after it is a divergence', async () => {
  const rec = await record();
  const r = await derive(rec, skill({ prompt: 'gather, differently' }), { mode: 'replay' });
  assert.equal(r.outcome.status, 'aborted');
  assert.equal(r.outcome.error?.code, 'replay_diverged');
  assert.equal(r.outcome.error?.reason, 'model_request_changed');
  assert.deepEqual(r.modelCalls, []);
  const cmp = compareLogs(rec.events, r.events);
  assert.deepEqual(cmp.stoppedAt?.position, 'gather/r1/model');
  assert.deepEqual(cmp.divergences.map((d) => [d.position, d.change]), [['gather/r1/model', 'model_request_changed']]);
  assert.ok(cmp.rows.filter((row) => row.change === 'not_reached').length > 5);
});

test('replay with a stage removed: each of its records is reported removed, in place', async () => {
  const rec = await record();
  const r = await derive(rec, skill({ stages: false }), { mode: 'replay' });
  assert.equal(r.outcome.status, 'completed');
  const cmp = compareLogs(rec.events, r.events);
  assert.deepEqual(
    cmp.divergences.map((d) => [d.position, d.change]),
    [
      ['gather/r1/post-model/unverified_numbers', 'removed'],
      ['gather/r2/post-model/unverified_numbers', 'removed'],
      ['write/r1/post-model/unverified_numbers', 'removed'],
    ],
  );
});

test('replay reaching a world read with arguments the recording never saw stops there, without touching the world', async () => {
  const gate = (args: JsonObject | null) => ({ guard: async () => (args ? { args: { 0: args } } : {}) });
  const p = plan({ ...skill(), stageProgram: [stage('guard', 'pre-tool', ['tools.gate'])], effectGrants: new Set(['fs.read', 'tools.gate']) });
  const store = new MemoryStore();
  const parent = await startRun(p, deps(countingModel({ calls: [] }), { store, sandbox: countingSandbox().sandbox, fileRoot: root, handlers: gate(null) }), { input: {}, skillText: '', runId: 'parent' });
  assert.equal(parent.status, 'completed');
  const events = await store.readEvents('parent');
  const model = { calls: [] as string[] };
  // the guard now rewrites the call to a file that exists nowhere: a live read would fail
  const r = await startRun(p, deps(countingModel(model), { store, sandbox: countingSandbox().sandbox, fileRoot: root, handlers: gate({ path: 'other.txt' }) }), {
    input: {},
    skillText: '',
    derivation: { mode: 'replay', parentRunId: 'parent', events },
  });
  assert.equal(r.status, 'aborted');
  assert.equal(r.error?.reason, 'tool_call_unrecorded');
  assert.equal(r.error?.position, 'gather/r1/tool/0');
  const cmp = compareLogs(events, await store.readEvents(r.runId));
  assert.deepEqual(cmp.divergences.map((d) => [d.position, d.change]), [
    ['gather/r1/pre-tool/guard', 'output'],
    ['gather/r1/tool/0', 'tool_call_unrecorded'],
  ]);
});

test('fork: steps before the point run zero times, the edited value is what the next step sees, the rest runs once', async () => {
  const rec = await record();
  const r = await derive(rec, skill(), { mode: 'fork', point: { at: '__post__/1', target: 'output', value: { n: 100 } } });
  assert.equal(r.outcome.status, 'completed', JSON.stringify(r.outcome.error));
  assert.deepEqual(r.modelCalls, [], 'every model turn is before the point');
  assert.deepEqual(['one', 'two', 'three'].map(r.sb.count), [0, 0, 1]);
  assert.equal((r.sb.calls[0].input as JsonObject).n, 100, 'step 2 saw the edited value');
  // step 0's result, then the edit merged in place of step 1's, then step 2's
  assert.deepEqual(r.outcome.output, { n: 101, title: 'T', one_saw: 2, three_saw: 100 });
  assert.equal(r.run.kind, 'fork');
  assert.equal(r.run.forkPoint, '__post__/1');
  const marker = r.events.find((e) => e.type === EVENT.forkPointReached)!;
  assert.deepEqual(marker.data.recorded, { two_saw: 3, n: 4 });
  assert.deepEqual(marker.data.edited, { n: 100 });
  assert.equal(stepOf(r.events, '__post__/1')?.data.edited, true);
  // every step before the point is in the fork's own log, marked as recorded
  const before = r.events.filter((e) => e.type === EVENT.stepCompleted && e.seq < marker.seq);
  assert.ok(before.length >= 8);
  assert.ok(before.every((e) => (e.data.recorded as JsonObject | undefined)?.runId === 'parent'));
});

test("a fork's timeline says of each item whether it was reused from the recording, edited at the fork point, or run live", async () => {
  const rec = await record();
  const r = await derive(rec, skill(), { mode: 'fork', point: { at: '__post__/1', target: 'output', value: { n: 100 } } });
  assert.equal(r.outcome.status, 'completed');
  const t = buildTimeline(new RunFold(r.outcome.runId, r.events));
  const parentSeq = (position: string) => stepOf(rec.events, position)!.seq;
  assert.deepEqual(
    t.post!.steps.map((s) => [s.position, s.fromRecording]),
    [
      ['__post__/0', { runId: 'parent', seq: parentSeq('__post__/0'), edited: false }],
      ['__post__/1', { runId: 'parent', seq: parentSeq('__post__/1'), edited: true }],
      ['__post__/2', null],
    ],
  );
  const gather = t.visits[0].rounds[0];
  assert.deepEqual(gather.model?.fromRecording, { runId: 'parent', seq: parentSeq('gather/r1/model'), edited: false });
  assert.equal(gather.tools[0].fromRecording?.runId, 'parent');
  assert.ok(gather.lanes.flatMap((l) => l.traces).every((x) => x.fromRecording?.runId === 'parent'));
  // the parent ran everything itself
  const own = buildTimeline(new RunFold('parent', rec.events));
  assert.ok(own.post!.steps.every((s) => s.fromRecording === null));
});

test('fork with an edited processor input: the step at the point runs once with it', async () => {
  const rec = await record();
  const r = await derive(rec, skill(), { mode: 'fork', point: { at: '__post__/1', target: 'input', value: { n: 50, extra: true } } });
  assert.equal(r.outcome.status, 'completed');
  assert.deepEqual(['one', 'two', 'three'].map(r.sb.count), [0, 1, 1]);
  assert.deepEqual(r.sb.calls[0].input, { n: 50, extra: true });
  assert.equal((r.outcome.output as JsonObject).n, 52);
});

test("fork with an edited processor input: the fork's inspector shows the edited value as what the step was handed, and the chain from it", async () => {
  const rec = await record();
  const r = await derive(rec, skill(), { mode: 'fork', point: { at: '__post__/1', target: 'input', value: { n: 50, extra: true } } });
  assert.equal(r.outcome.status, 'completed');
  const fold = new RunFold(r.outcome.runId, r.events);
  const step1 = stepOf(r.events, '__post__/1')!;
  // the step's Details: what it was handed is the edit, not the value step 0 left (the parent's)
  const rebuilt = rebuildStep(fold, step1.seq);
  assert.ok(rebuilt && rebuilt.kind === 'processor');
  assert.deepEqual(rebuilt.input, { n: 50, extra: true });
  assert.equal(rebuilt.verified, true, 'the rebuilt input is the one the kernel hashed');
  // at the fork point, before the step: the chain holds the edit (State at step, and what that event changed)
  const marker = r.events.find((e) => e.type === EVENT.forkPointReached)!;
  assert.deepEqual(chainValueAt(fold.post!, marker.seq).value, { n: 50, extra: true });
  assert.equal(chainValueAt(fold.post!, marker.seq - 1).step?.data.position, '__post__/0');
  assert.equal(chainValueAt(fold.post!, marker.seq - 1).value.extra, undefined, 'before the point: what step 0 left');
  // the chain's value after it, and at the end, grow from the edit (State at step)
  assert.deepEqual(chainValueAt(fold.post!, step1.seq).value, { n: 51, extra: true, two_saw: 50 });
  assert.equal(currentValue(fold.post!).n, 52);
  assert.equal(currentValue(fold.post!).extra, true);
});

test("State at step says where the chain's value is the fork's edit: from the fork point until the edited step ran, the chain is the step's input edited at the fork", async () => {
  const rec = await record();
  const r = await derive(rec, skill(), { mode: 'fork', point: { at: '__post__/1', target: 'input', value: { n: 50, extra: true } } });
  const fold = new RunFold(r.outcome.runId, r.events);
  const marker = r.events.find((e) => e.type === EVENT.forkPointReached)!;
  const step1 = stepOf(r.events, '__post__/1')!;
  assert.equal(stateAt(fold, marker.seq).chain?.editedAt, '__post__/1', 'at the point: the input of __post__/1, edited');
  assert.equal(stateAt(fold, marker.seq).chain?.step, '__post__/0');
  assert.equal(stateAt(fold, marker.seq - 1).chain?.editedAt, undefined, 'before it: what step 0 left');
  assert.equal(stateAt(fold, step1.seq).chain?.editedAt, undefined, 'after the step: what it made of the edit');
  // a run's own chain is never said to be edited
  const own = new RunFold('parent', rec.events);
  assert.ok(rec.events.every((e) => stateAt(own, e.seq).chain?.editedAt === undefined));
});

test('rerun from a step (no edit): everything before answered, the step and the rest run live once', async () => {
  const rec = await record();
  const r = await derive(rec, skill(), { mode: 'fork', point: { at: '__post__/1', target: 'rerun' } });
  assert.deepEqual(['one', 'two', 'three'].map(r.sb.count), [0, 1, 1]);
  assert.deepEqual(r.outcome.output, rec.outcome.output);
  assert.deepEqual(compareLogs(rec.events, r.events).divergences, []);
});

test('fork of a model turn: the edited finish artifact flows on; the model is not asked for it', async () => {
  const rec = await record();
  const r = await derive(rec, skill(), { mode: 'fork', point: { at: 'write/r1/model', target: 'output', value: { text: 'edited', toolCalls: [], finish: { n: 40, title: 'E' } } } });
  assert.equal(r.outcome.status, 'completed');
  assert.deepEqual(r.modelCalls, []);
  assert.equal((r.outcome.output as JsonObject).n, 43);
  assert.deepEqual(['one', 'two', 'three'].map(r.sb.count), [1, 1, 1]);
});

test('fork at a phase start with another model: the earlier phase is answered, the phase runs with the new model', async () => {
  const rec = await record();
  const calls = { calls: [] as string[] };
  const other = countingModel(calls, 'other', { write: [{ finish: { n: 7, title: 'other model' } }] });
  const r = await derive(rec, skill(), { mode: 'fork', point: { at: 'write', target: 'rerun' } }, other);
  assert.equal(r.outcome.status, 'completed');
  assert.deepEqual(calls.calls, ['write/r1']);
  assert.equal((r.outcome.output as JsonObject).n, 10);
  assert.equal(r.run.model, 'other');
});

test('fork at __post__ with an edited finish artifact: it is persisted and post-processed', async () => {
  const rec = await record();
  const r = await derive(rec, skill(), { mode: 'fork', point: { at: '__post__', target: 'input', value: { n: 1000, title: 'edited' } } });
  assert.equal(r.outcome.status, 'completed');
  assert.equal((r.outcome.output as JsonObject).n, 1003);
  assert.deepEqual((await rec.store.readArtifact(r.outcome.runId, '.stagecraft/finish.json'))?.content, { n: 1000, title: 'edited' });
});

test("State at step at a fork of __post__ with an edited finish: from the fork point until __post__/0 ran, the postprocessor chain holds the edit, in place of what phase write left", async () => {
  const rec = await record();
  const r = await derive(rec, skill(), { mode: 'fork', point: { at: '__post__', target: 'input', value: { n: 1000, title: 'edited' } } });
  const fold = new RunFold(r.outcome.runId, r.events);
  const marker = r.events.find((e) => e.type === EVENT.forkPointReached)!;
  const step0 = stepOf(r.events, '__post__/0')!;
  assert.equal(stateAt(fold, marker.seq - 1).chain, null, 'before the point: no chain, as before');
  for (let seq = marker.seq; seq < step0.seq; seq++) {
    const chain = stateAt(fold, seq).chain;
    assert.deepEqual(chain && { ...chain }, { prefix: '__post__', phase: '__post__', value: { n: 1000, title: 'edited' }, step: null, element: null, editedAt: '__post__', editedOver: 'write' }, `at ${seq}`);
  }
  // once __post__/0 ran: the chain as the run made it, from the edit
  assert.equal(stateAt(fold, step0.seq).chain?.editedAt, undefined);
  assert.equal(stateAt(fold, step0.seq).chain?.editedOver, undefined);
  assert.equal(stateAt(fold, step0.seq).chain?.value.one_saw, 1000);
  // a run's own finish is never said to be edited, and before __post__/0 its chain is not shown
  const own = new RunFold('parent', rec.events);
  assert.ok(rec.events.every((e) => stateAt(own, e.seq).chain?.editedOver === undefined));
  assert.equal(stateAt(own, stepOf(rec.events, '__post__/0')!.seq - 1).chain, null);
});

test("State at step at a fork of a phase's input: its transcript's input says it is the phase's input edited at the fork point, in place of what the phase before left", async () => {
  const rec = await record();
  const r = await derive(rec, skill(), { mode: 'fork', point: { at: 'write', target: 'input', value: { n: 7, facts: ['edited'] } } });
  assert.equal(r.outcome.status, 'completed', JSON.stringify(r.outcome.error));
  const fold = new RunFold(r.outcome.runId, r.events);
  const model = stepOf(r.events, 'write/r1/model')!;
  const [system, input] = stateAt(fold, model.seq).transcript;
  assert.deepEqual([input.role, input.editedAt, input.editedOver], ['user', 'write', 'gather']);
  assert.match(input.content, /"edited"/);
  assert.equal(system.editedAt, undefined);
  // no preprocessor: no chain is made up for it
  assert.ok(r.events.every((e) => stateAt(fold, e.seq).chain?.editedOver === undefined));
  // the phase before, and the parent's own transcript: never said to be edited
  assert.ok(stateAt(fold, stepOf(r.events, 'gather/r2/model')!.seq).transcript.every((m) => m.editedAt === undefined));
  const own = new RunFold('parent', rec.events);
  assert.ok(rec.events.every((e) => stateAt(own, e.seq).transcript.every((m) => m.editedAt === undefined)));
  // the entry phase's input is the run's
  const entry = await derive(await record(), skill(), { mode: 'fork', point: { at: 'gather', target: 'input', value: { q: 'y' } } });
  const entryFold = new RunFold(entry.outcome.runId, entry.events);
  const first = stateAt(entryFold, stepOf(entry.events, 'gather/r1/model')!.seq).transcript[1];
  assert.deepEqual([first.editedAt, first.editedOver], ['gather', null]);
});

test("State at step at a fork of a phase's input with a preprocessor: from the fork point until its first step ran, the chain holds the edit, in place of what the phase before left", async () => {
  const p = skill({ writePre: [code(0, 'pre_one')] });
  const rec = await record(p);
  const r = await derive(rec, p, { mode: 'fork', point: { at: 'write', target: 'input', value: { n: 7, facts: ['edited'] } } });
  assert.equal(r.outcome.status, 'completed', JSON.stringify(r.outcome.error));
  const fold = new RunFold(r.outcome.runId, r.events);
  const marker = r.events.find((e) => e.type === EVENT.forkPointReached)!;
  const pre0 = stepOf(r.events, 'write/pre/0')!;
  assert.equal(stateAt(fold, marker.seq - 1).chain, null);
  for (let seq = marker.seq; seq < pre0.seq; seq++) {
    const chain = stateAt(fold, seq).chain;
    assert.deepEqual(chain && { ...chain }, { prefix: 'write/pre', phase: 'write', value: { n: 7, facts: ['edited'] }, step: null, element: null, editedAt: 'write', editedOver: 'gather' }, `at ${seq}`);
  }
  assert.equal(stateAt(fold, pre0.seq).chain?.editedAt, undefined, 'once the step ran: what it made of the edit');
  assert.equal(stateAt(fold, pre0.seq).chain?.value.pre_one_saw, 7);
  // the transcript's input is the preprocessor's result, not the edit: not labelled
  assert.ok(stateAt(fold, stepOf(r.events, 'write/r1/model')!.seq).transcript.every((m) => m.editedAt === undefined));
});

test('a fork whose skill changed before the point fails, naming the step; a resume of a crashed fork finishes it', async () => {
  const rec = await record();
  const changed = await derive(rec, skill({ prompt: 'changed' }), { mode: 'fork', point: { at: '__post__/1', target: 'rerun' } });
  assert.equal(changed.outcome.status, 'failed');
  assert.equal(changed.outcome.error?.code, 'fork_prefix_changed');
  assert.match(String(changed.outcome.error?.message), /gather\/r1\/model, before the fork point __post__\/1, changed/);

  // crash the fork right after its first effectful step, then resume it: the prefix is not run again
  const sb = countingSandbox();
  const derivation: Derivation = { mode: 'fork', parentRunId: rec.runId, events: rec.events, point: { at: '__post__/1', target: 'rerun' } };
  await assert.rejects(
    startRun(skill(), deps(countingModel({ calls: [] }), { store: rec.store, sandbox: sb.sandbox, faults: crashAt('after-commit', 2) }), {
      input: { q: 'x' },
      skillText: '',
      runId: 'fork1',
      derivation,
    }),
    SimulatedCrash,
  );
  const again = countingSandbox();
  const model = { calls: [] as string[] };
  const out = await resumeRun('fork1', () => skill(), deps(countingModel(model), { store: rec.store, sandbox: again.sandbox }));
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  assert.deepEqual(model.calls, []);
  assert.equal(again.count('one'), 0, 'a step before the point is never run, before or after the crash');
  assert.deepEqual(out.output, rec.outcome.output);
});

test('probe: the value at each kind of point, with its check; a point the run does not reach is refused with the positions', async () => {
  const rec = await record();
  const probe = (raw: string, value?: Json) => probeForkPoint(skill(), deps(countingModel({ calls: [] })), { input: { q: 'x' }, parentRunId: 'parent', events: rec.events, point: forkPointOf(raw, value) });
  assert.deepEqual((await probe('__post__/1', {})).base, { two_saw: 3, n: 4 });
  assert.deepEqual((await probe('__post__/1/input', {})).base, { n: 3, one_saw: 2, title: 'T' });
  assert.deepEqual((await probe('__post__', {})).base, { n: 2, title: 'T' });
  assert.deepEqual((await probe('write', {})).base, { n: 1, facts: ['a'] });
  assert.deepEqual((await probe('gather/r1/pre-tool/0', {})).base, { path: 'notes.txt' });
  assert.equal((await probe('gather/r1/post-tool/0', {})).base, 'the notes');
  const turn = await probe('write/r1/model', {});
  assert.deepEqual(turn.check!({ finish: { n: 1 } }), { value: { text: '', toolCalls: [], finish: { n: 1 } }, errors: [] });
  assert.match(turn.check!({ finish: 'no' }).errors[0], /finish must be a JSON object/);
  const finish = await probe('__post__', {});
  assert.match(finish.check!({ title: 'no n' }).errors[0], /the finish artifact does not satisfy its schema: .*n/);
  assert.ok(finish.check!.schema && typeof finish.check!.schema === 'object', 'the schema an editor checks the finish artifact against as it is typed');
  assert.equal(turn.check!.schema, undefined, 'a model turn is checked by shape, with no schema to hand out');
  const args = await probe('gather/r1/tool/0/input', {});
  assert.match(args.check!({ path: 3 }).errors[0], /the arguments of file\/read/);
  await assert.rejects(probe('__post__/9'), (e: unknown) => e instanceof ForkPointError && e.code === 'fork_point_unknown' && /Positions of the run: input, gather, gather\/r1\/model/.test(e.message));
  await assert.rejects(probe('nowhere/r1/model'), ForkPointError);
});

test('--set edits: paths into objects and arrays, copies only', () => {
  const v = { a: { b: [1, 2] }, c: 'x' } as Json;
  assert.deepEqual(setAtPath(v, 'a.b[1]', 9), { a: { b: [1, 9] }, c: 'x' });
  assert.deepEqual(setAtPath(v, '$.a.b.0', 7), { a: { b: [7, 2] }, c: 'x' });
  assert.deepEqual(setAtPath(v, '/c', null), { a: { b: [1, 2] }, c: null });
  assert.deepEqual(setAtPath(v, 'new.deep', true), { a: { b: [1, 2] }, c: 'x', new: { deep: true } });
  assert.deepEqual(setAtPath(v, '$', 5), 5);
  assert.deepEqual(v, { a: { b: [1, 2] }, c: 'x' });
  assert.throws(() => setAtPath(v, 'c.d', 1), /c is string, so it has no "d"/);
});

test('a run whose model call failed records where; its replay fails there the same way (identical), and a rerun starts there', async () => {
  const failing: ModelPort = {
    name: 'flaky',
    async invoke(r) {
      if (r.phase === 'write') throw new ModelError('model_http_error', 'The model endpoint answered HTTP 503: overloaded.', { status: 503 });
      return { text: '', toolCalls: [], finish: null, ...structuredClone(turns[r.phase][r.round - 1]) } as ModelTurn;
    },
  };
  const store = new MemoryStore();
  const out = await startRun(skill(), deps(failing, { store, sandbox: countingSandbox().sandbox, fileRoot: root }), { input: {}, skillText: '', runId: 'flaky' });
  assert.equal(out.status, 'failed');
  assert.equal(out.error?.position, 'write/r1/model');
  const events = await store.readEvents('flaky');
  const r = await startRun(skill(), deps(countingModel({ calls: [] }), { store, sandbox: countingSandbox().sandbox, fileRoot: root }), {
    input: {},
    skillText: '',
    runId: 'flaky-replay',
    derivation: { mode: 'replay', parentRunId: 'flaky', events },
  });
  assert.equal(r.status, 'failed');
  assert.deepEqual(compareLogs(events, await store.readEvents(r.runId)).divergences, []);
  const model = { calls: [] as string[] };
  const rerun = await startRun(skill(), deps(countingModel(model), { store, sandbox: countingSandbox().sandbox, fileRoot: root }), {
    input: {},
    skillText: '',
    runId: 'flaky-rerun',
    derivation: { mode: 'fork', parentRunId: 'flaky', events, point: { at: String(out.error?.position), target: 'rerun' } },
  });
  assert.equal(rerun.status, 'completed');
  assert.deepEqual(model.calls, ['write/r1'], 'only the failed call is made again');
});

const nestedScript = { ...turns, write: [{ finish: { n: 2, items: [{ n: 1 }, { n: 5 }] } }] };

/** a run whose postprocessor iterates two steps over `items`, then runs a third: the plan and the run */
async function recordNested(): Promise<{ p: Plan; rec: Recorded }> {
  const iterate = { ...base, index: 0, type: 'iterate', over: 'items', into: 'done', steps: [code(0, 'one'), code(1, 'two')] } as StepSpec;
  const p = skill({ steps: [iterate, code(1, 'three')] });
  const store = new MemoryStore();
  const parent = await startRun(p, deps(countingModel({ calls: [] }, 'count', nestedScript), { store, sandbox: countingSandbox().sandbox, fileRoot: root }), { input: { q: 'x' }, skillText: '', runId: 'nested' });
  assert.equal(parent.status, 'completed', JSON.stringify(parent.error));
  return { p, rec: { store, runId: 'nested', events: await store.readEvents('nested'), outcome: parent } };
}

test("fork at a step nested in an iterate's chain: the iterate runs, its steps before the point answered, the point's edit flows on", async () => {
  const script = nestedScript;
  const { p, rec } = await recordNested();
  // the probe reaches the nested point: what element 1's second step was given
  const probe = await probeForkPoint(p, deps(countingModel({ calls: [] }, 'count', script)), { input: { q: 'x' }, parentRunId: 'nested', events: rec.events, point: forkPointOf('__post__/0/1/1/input', {}) });
  assert.deepEqual(probe.base, { one_saw: 5, n: 6 });
  const r = await derive(rec, p, { mode: 'fork', point: { at: '__post__/0/1/1', target: 'input', value: { n: 40 } } }, countingModel({ calls: [] }, 'count', script));
  assert.equal(r.outcome.status, 'completed', JSON.stringify(r.outcome.error));
  // element 0's steps and element 1's first are answered; the step at the point and what follows run
  assert.deepEqual(['one', 'two', 'three'].map(r.sb.count), [0, 1, 1]);
  assert.deepEqual(r.sb.calls[0].input, { n: 40 });
  assert.deepEqual((r.outcome.output as JsonObject).done, [
    { n: 3, one_saw: 1, two_saw: 2 },
    { n: 41, two_saw: 40 },
  ]);
  assert.ok(r.events.some((e) => e.type === EVENT.forkPointReached));
});

test('a fork past an iterate answered whole is compared without its nested steps: they are no steps it lacks', async () => {
  const { p, rec } = await recordNested();
  const r = await derive(rec, p, { mode: 'fork', point: { at: '__post__/1', target: 'rerun' } }, countingModel({ calls: [] }, 'count', nestedScript));
  assert.equal(r.outcome.status, 'completed', JSON.stringify(r.outcome.error));
  assert.equal(stepOf(r.events, '__post__/0/1/0'), undefined, 'the fork answered the iterate whole: its nested steps are not in its log');
  for (const [a, b] of [[rec.events, r.events], [r.events, rec.events]]) {
    const cmp = compareLogs(a, b);
    assert.deepEqual(cmp.divergences, [], JSON.stringify(cmp.divergences.map((d) => d.message)));
    assert.ok(!cmp.rows.some((row) => row.position.startsWith('__post__/0/')));
  }
});

test("an identical comparison of a fork past an iterate counts the same steps on both sides, the parent's nested ones apart", async () => {
  const { p, rec } = await recordNested();
  const r = await derive(rec, p, { mode: 'fork', point: { at: '__post__/1', target: 'rerun' } }, countingModel({ calls: [] }, 'count', nestedScript));
  const cmp = compareLogs(rec.events, r.events);
  assert.deepEqual(cmp.divergences, []);
  assert.equal(cmp.a.steps, cmp.b.steps, 'identical, so the same steps on both sides');
  assert.equal(cmp.a.steps, cmp.rows.length);
  // two elements × two steps of the iterate's chain: run by the parent, held in the fork's answer
  assert.deepEqual([cmp.a.insideAnswered, cmp.b.insideAnswered], [4, 0]);
  const back = compareLogs(r.events, rec.events);
  assert.deepEqual([back.a.steps, back.a.insideAnswered, back.b.steps, back.b.insideAnswered], [cmp.b.steps, 0, cmp.a.steps, 4]);
});

test('fork at a step nested in an iterate that itself changed (another `over`) fails, naming the iterate', async () => {
  const script = { ...turns, write: [{ finish: { n: 2, items: [{ n: 1 }, { n: 5 }], others: [{ n: 9 }] } }] };
  const iterate = (over: string) => ({ ...base, index: 0, type: 'iterate', over, into: 'done', steps: [code(0, 'one'), code(1, 'two')] }) as StepSpec;
  const p = skill({ steps: [iterate('items'), code(1, 'three')] });
  const store = new MemoryStore();
  const parent = await startRun(p, deps(countingModel({ calls: [] }, 'count', script), { store, sandbox: countingSandbox().sandbox, fileRoot: root }), { input: { q: 'x' }, skillText: '', runId: 'nested2' });
  assert.equal(parent.status, 'completed', JSON.stringify(parent.error));
  const rec = { store, runId: 'nested2', events: await store.readEvents('nested2'), outcome: parent };
  const changed = skill({ steps: [iterate('others'), code(1, 'three')] });
  const r = await derive(rec, changed, { mode: 'fork', point: { at: '__post__/0/1/1', target: 'input', value: { n: 40 } } }, countingModel({ calls: [] }, 'count', script));
  assert.equal(r.outcome.status, 'failed');
  assert.equal(r.outcome.error?.code, 'fork_prefix_changed');
  assert.match(String(r.outcome.error?.message), /processor step at __post__\/0, before the fork point __post__\/0\/1\/1, changed/);
  assert.deepEqual(['one', 'two', 'three'].map(r.sb.count), [0, 0, 0], 'nothing ran');
});

test('fork at a step nested in an iterate whose nested steps at or after the point changed: the fork runs them as they are now', async () => {
  const script = { ...turns, write: [{ finish: { n: 2, items: [{ n: 1 }, { n: 5 }] } }] };
  const iterate = (steps: StepSpec[]) => ({ ...base, index: 0, type: 'iterate', over: 'items', into: 'done', steps }) as StepSpec;
  const p = skill({ steps: [iterate([code(0, 'one'), code(1, 'two')]), code(1, 'three')] });
  const store = new MemoryStore();
  const parent = await startRun(p, deps(countingModel({ calls: [] }, 'count', script), { store, sandbox: countingSandbox().sandbox, fileRoot: root }), { input: { q: 'x' }, skillText: '', runId: 'nested3' });
  assert.equal(parent.status, 'completed', JSON.stringify(parent.error));
  const rec = { store, runId: 'nested3', events: await store.readEvents('nested3'), outcome: parent };
  // the step at the point is another now, and a third step follows it
  const fixed = skill({ steps: [iterate([code(0, 'one'), code(1, 'two_fixed'), code(2, 'extra')]), code(1, 'three')] });
  // the point: element 0's second step; element 0's first is answered, the rest runs as it is now
  const r = await derive(rec, fixed, { mode: 'fork', point: { at: '__post__/0/0/1', target: 'rerun' } }, countingModel({ calls: [] }, 'count', script));
  assert.equal(r.outcome.status, 'completed', JSON.stringify(r.outcome.error));
  assert.deepEqual(['one', 'two', 'two_fixed', 'extra', 'three'].map(r.sb.count), [1, 0, 2, 2, 1]);
});

test("fork of a fork at a step inside an iterate the first fork answered whole: refused, pointing to the run that recorded it", async () => {
  const script = { ...turns, write: [{ finish: { n: 2, items: [{ n: 1 }, { n: 5 }] } }] };
  const iterate = { ...base, index: 0, type: 'iterate', over: 'items', into: 'done', steps: [code(0, 'one'), code(1, 'two')] } as StepSpec;
  const p = skill({ steps: [iterate, code(1, 'three')] });
  const store = new MemoryStore();
  const parent = await startRun(p, deps(countingModel({ calls: [] }, 'count', script), { store, sandbox: countingSandbox().sandbox, fileRoot: root }), { input: { q: 'x' }, skillText: '', runId: 'nested4' });
  const rec = { store, runId: 'nested4', events: await store.readEvents('nested4'), outcome: parent };
  // the first fork reruns from the step after the iterate: the iterate is answered whole
  const first = await derive(rec, p, { mode: 'fork', point: { at: '__post__/1', target: 'rerun' } }, countingModel({ calls: [] }, 'count', script));
  assert.equal(first.outcome.status, 'completed', JSON.stringify(first.outcome.error));
  assert.equal(first.sb.count('one'), 0);
  const forkOf = (parentRunId: string, events: RunEvent[], runId: string) =>
    startRun(p, deps(countingModel({ calls: [] }, 'count', script), { store, sandbox: countingSandbox().sandbox, fileRoot: root }), {
      input: { q: 'x' },
      skillText: '',
      runId,
      derivation: { mode: 'fork', parentRunId, events, point: { at: '__post__/0/1/1', target: 'rerun' } },
    });
  const again = await forkOf(first.outcome.runId, first.events, 'fork-of-fork');
  assert.equal(again.status, 'failed', JSON.stringify(again.error));
  assert.equal(again.error?.code, 'fork_point_unknown');
  assert.match(String(again.error?.message), /answered __post__\/0 whole from run nested4's recording.*Fork run nested4 at __post__\/0\/1\/1 instead/);
  // and forking the run that recorded it there works
  const direct = await forkOf('nested4', rec.events, 'fork-of-parent');
  assert.equal(direct.status, 'completed', JSON.stringify(direct.error));
});

test("fork with edited tool-call arguments: the fork's inspector shows them as what the call was handed", async () => {
  const rec = await record();
  const r = await derive(rec, skill(), { mode: 'fork', point: { at: 'gather/r1/tool/0', target: 'input', value: { path: 'notes.txt', extra: 1 } } });
  assert.equal(r.outcome.status, 'completed');
  const call = stepOf(r.events, 'gather/r1/tool/0')!;
  const rebuilt = rebuildStep(new RunFold(r.outcome.runId, r.events), call.seq);
  assert.ok(rebuilt && rebuilt.kind === 'tool');
  assert.deepEqual(rebuilt.args, { path: 'notes.txt', extra: 1 });
  assert.equal(rebuilt.verified, true, 'the rebuilt args are the ones the kernel hashed');
});
