// Resume and memo, table-driven: crash a run at every commit boundary, resume
// it, and check that committed steps ran once, world-purity reads ran again,
// the log is gap-free and the caller artifact is the uninterrupted one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deps, phase, plan, playModel, post, stage, testIds } from './testing';
import { crashAt, SimulatedCrash, type FaultPoint } from './faults';
import { abortRun, FINISH_ARTIFACT_PATH, resumeRun, startRun } from './runner';
import { MemoryStore } from './memory-store';
import type { Plan, StepSpec } from './plan';
import type { CodeSandbox, ModelPort, ModelTurn } from './ports';
import { DeterminismError, RunFinishedError, RunNotFoundError, RunNotResumableError } from './errors';

const root = mkdtempSync(path.join(tmpdir(), 'sc-resume-'));
writeFileSync(path.join(root, 'in.txt'), 'source text');
const base = { onError: 'fail' as const, emptyValue: null, line: 1 };

function countingSandbox(counts: Map<string, number>): CodeSandbox {
  return {
    async call(c) {
      counts.set(c.exportName, (counts.get(c.exportName) ?? 0) + 1);
      return { [c.exportName]: (c.input as { body: string }).body.length };
    },
    async close() {},
  };
}

const turns: Partial<ModelTurn>[] = [
  { toolCalls: [{ id: 'c1', op: 'file/read', args: { path: 'in.txt' } }] },
  { toolCalls: [{ id: 'c2', op: 'file/write', args: { path: 'out.txt', content: 'written' } }] },
  { finish: { body: 'hello world' } },
];

function skill(): Plan {
  const code = (index: number, fn: string, pure: boolean): StepSpec =>
    ({ ...base, index, type: 'node', module: './x.mjs', modulePath: '/x.mjs', function: fn, timeoutMs: 1000, pure }) as StepSpec;
  return plan({
    phases: { draft: phase('draft', { tools: ['file/read', 'file/write'], successors: [], isTerminal: true }) },
    permittedOps: new Set(['file/read', 'file/write']),
    effectGrants: new Set(['fs.read', 'fs.write']),
    postprocessor: post([code(0, 'effectful', false), code(1, 'pureOne', true), { ...base, index: 2, type: 'validate', schema: { type: 'object' } } as StepSpec]),
  });
}

type Counters = { model: number; sandbox: Map<string, number> };

function countingModel(c: Counters): ModelPort {
  return { name: 'count', invoke: async (r) => (c.model++, turnFor(r.round)) };
}
const turnFor = (round: number): ModelTurn => ({ text: '', toolCalls: [], finish: null, ...turns[round - 1] }) as ModelTurn;

async function uninterrupted() {
  const c: Counters = { model: 0, sandbox: new Map() };
  const d = deps(countingModel(c), { fileRoot: root, sandbox: countingSandbox(c.sandbox) });
  return startRun(skill(), d, { input: {}, skillText: '' });
}

/** Starts the skill as run `r` and crashes it at the n-th hit of `point`; returns what a resume needs. */
async function crashedRun(point: FaultPoint, n: number) {
  const store = new MemoryStore();
  const c: Counters = { model: 0, sandbox: new Map() };
  const sandbox = countingSandbox(c.sandbox);
  await assert.rejects(
    startRun(skill(), deps(countingModel(c), { store, fileRoot: root, sandbox, faults: crashAt(point, n) }), { input: {}, skillText: '', runId: 'r' }),
    SimulatedCrash,
  );
  return { store, c, sandbox };
}

const POINTS: FaultPoint[] = ['before-step', 'after-step-before-commit', 'after-commit', 'before-postprocessor', 'after-artifact-persisted'];

test('crash at every fault point and hit, then resume: committed steps run once, output equals the uninterrupted run', async () => {
  const expected = await uninterrupted();
  assert.equal(expected.status, 'completed');
  let cases = 0;
  for (const point of POINTS) {
    for (let n = 1; n <= 12; n++) {
      const store = new MemoryStore();
      const c: Counters = { model: 0, sandbox: new Map() };
      const common = { store, fileRoot: root, sandbox: countingSandbox(c.sandbox), ids: testIds() };
      let runId = '';
      try {
        const out = await startRun(skill(), deps(countingModel(c), { ...common, faults: crashAt(point, n) }), { input: {}, skillText: '', runId: 'run_x' });
        runId = out.runId;
        continue; // the point was not hit n times: nothing to resume
      } catch (e) {
        assert.ok(e instanceof SimulatedCrash, String(e));
        runId = 'run_x';
      }
      cases++;
      const after = await store.getRun(runId);
      if (!after) {
        // crashed before the first commit (the run row is written with it): nothing ran outside the process
        assert.equal(c.sandbox.get('effectful') ?? 0, 0, `${point}#${n}`);
        assert.ok(c.model <= 1, `${point}#${n}`);
        continue;
      }
      // a crash after the final commit leaves a finished run: nothing to resume
      const resumed = after!.status === 'running'
        ? await resumeRun(runId, () => skill(), deps(countingModel(c), common))
        : { status: after!.status, output: after!.output };
      const label = `${point}#${n}`;
      assert.equal(resumed.status, 'completed', label);
      assert.deepEqual(resumed.output, expected.output, label);
      // model rounds: 3 in total, at most one repeated (the one in flight)
      assert.ok(c.model >= 3 && c.model <= 4, `${label}: model called ${c.model} times`);
      // the effectful code step: once, or twice only if it was the step in flight
      assert.ok((c.sandbox.get('effectful') ?? 0) <= 2, label);
      const events = await store.readEvents(runId);
      assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1), `${label}: seq gap-free`);
      // the log says which skill text each execution ran
      for (const e of events.filter((x) => x.type === 'run_resumed')) assert.equal(e.data.skillHash, skill().skillHash, label);
      // a committed step is never recorded twice at the same position
      const positions = events.filter((e) => e.type === 'step_completed' && e.data.kind !== 'tool').map((e) => e.data.position);
      assert.equal(new Set(positions).size, positions.length, `${label}: duplicate step record`);
      assert.equal(readFileSync(path.join(root, 'out.txt'), 'utf8'), 'written');
    }
  }
  assert.ok(cases >= 20, `only ${cases} crash cases`);
});

test('a committed effectful step is not executed again on resume; world-purity reads are', async () => {
  const store = new MemoryStore();
  const reads: string[] = [];
  const c: Counters = { model: 0, sandbox: new Map() };
  const sandbox = countingSandbox(c.sandbox);
  // crash right before the postprocessor: every phase step is committed
  await assert.rejects(
    startRun(skill(), deps(countingModel(c), { store, fileRoot: root, sandbox, faults: crashAt('before-postprocessor', 1) }), { input: {}, skillText: '', runId: 'r' }),
    SimulatedCrash,
  );
  assert.equal(c.model, 3);
  // resuming from __post__ goes straight to the postprocessor: no model call, no tool call
  const out = await resumeRun('r', () => skill(), deps(countingModel(c), { store, fileRoot: root, sandbox }));
  assert.equal(out.status, 'completed');
  assert.equal(c.model, 3);
  assert.equal(c.sandbox.get('effectful'), 1);
  void reads;
});

test('resuming re-executes world-purity reads in the current phase but answers model turns from the memo', async () => {
  const store = new MemoryStore();
  const c: Counters = { model: 0, sandbox: new Map() };
  const sandbox = countingSandbox(c.sandbox);
  // crash before the third model round: rounds 1-2 (with file/read and file/write) are committed
  await assert.rejects(
    startRun(skill(), deps(countingModel(c), { store, fileRoot: root, sandbox, faults: crashAt('before-step', 5) }), { input: {}, skillText: '', runId: 'r' }),
    SimulatedCrash,
  );
  const before = (await store.readEvents('r')).filter((e) => e.data.op === 'file/read').length;
  writeFileSync(path.join(root, 'out.txt'), 'tampered');
  const out = await resumeRun('r', () => skill(), deps(countingModel(c), { store, fileRoot: root, sandbox }));
  assert.equal(out.status, 'completed');
  const events = await store.readEvents('r');
  assert.equal(events.filter((e) => e.data.op === 'file/read').length, before + 1, 'file/read re-executed on resume');
  assert.equal(events.filter((e) => e.data.op === 'file/write').length, 1, 'file/write not re-executed');
  assert.equal(readFileSync(path.join(root, 'out.txt'), 'utf8'), 'tampered');
  writeFileSync(path.join(root, 'out.txt'), 'written');
});

test('a recorded step whose definition changed stops the resume with a determinism error naming both definitions', async () => {
  const { store, c, sandbox } = await crashedRun('before-step', 8);
  const changed = skill();
  const s0 = changed.postprocessor!.steps[0] as StepSpec & { function: string };
  s0.function = 'renamed';
  await assert.rejects(resumeRun('r', () => changed, deps(countingModel(c), { store, fileRoot: root, sandbox })), (e: unknown) => {
    assert.ok(e instanceof DeterminismError);
    assert.match(e.message, /__post__\/0/);
    assert.match(e.message, /"function":"effectful"/);
    assert.match(e.message, /"function":"renamed"/);
    return true;
  });
  // the run is left resumable, untouched
  assert.ok(await store.readSnapshot('r'));
});

test('a recorded step the skill no longer has (the chain was cut short) stops the resume, naming the step', async () => {
  const { store, c, sandbox } = await crashedRun('before-step', 8);
  assert.ok((await store.readEvents('r')).some((e) => e.data.position === '__post__/0'), 'step 0 was recorded before the crash');
  const cut = skill();
  (cut.postprocessor!.steps as StepSpec[]).length = 0;
  await assert.rejects(resumeRun('r', () => cut, deps(countingModel(c), { store, fileRoot: root, sandbox })), (e: unknown) => {
    assert.ok(e instanceof DeterminismError);
    assert.match(e.message, /__post__\/0/);
    assert.match(e.message, /"function":"effectful"/);
    assert.match(e.message, /no step there/);
    return true;
  });
  assert.ok(await store.readSnapshot('r'), 'the run is left resumable');
  // the whole postprocessor gone: the same
  const gone = { ...skill(), postprocessor: null };
  await assert.rejects(resumeRun('r', () => gone, deps(countingModel(c), { store, fileRoot: root, sandbox })), (e: unknown) => {
    assert.ok(e instanceof DeterminismError);
    assert.match(e.message, /__post__\/0.*the chain is gone/);
    assert.match(e.message, /restore the skill\.md it ran/);
    return true;
  });
  assert.equal(c.sandbox.get('effectful'), 1, 'nothing re-ran');
});

/** the run's events, or none when it was never recorded (a crash before its first commit) */
async function eventsIfRecorded(store: MemoryStore, runId: string) {
  return (await store.getRun(runId)) ? store.readEvents(runId) : [];
}

test('a recorded stage the skill no longer has on its rung (removed, or moved) stops the resume before anything runs', async () => {
  const withStage = (rung: 'post-model' | 'prompt-assembly' = 'post-model'): Plan => ({ ...skill(), stageProgram: [stage('watch', rung)] });
  let watched = 0;
  const handlers = { watch: () => void watched++ }; // a handler: user code, committed before the next step
  // crash somewhere inside the phase once round 1's post-model stage is recorded
  let found: { store: MemoryStore; c: Counters } | null = null;
  for (let n = 1; n <= 12 && !found; n++) {
    const store = new MemoryStore();
    const c: Counters = { model: 0, sandbox: new Map() };
    const d = deps(countingModel(c), { store, fileRoot: root, sandbox: countingSandbox(c.sandbox), handlers, faults: crashAt('before-step', n) });
    const out = await startRun(withStage(), d, { input: {}, skillText: '', runId: 'r' }).catch((e: unknown) => e);
    if (!(out instanceof SimulatedCrash)) continue;
    // a crash before the run's first commit leaves no run (it is recorded with that commit)
    const recorded = (await eventsIfRecorded(store, 'r')).some((e) => e.data.position === 'draft/r1/post-model/watch');
    if (recorded && (await store.readSnapshot('r'))?.currentPhase === 'draft') found = { store, c };
  }
  assert.ok(found, 'no crash point inside the phase after the stage was recorded');
  const { store, c } = found;
  const resume = (p: Plan) => resumeRun('r', () => p, deps(countingModel(c), { store, fileRoot: root, sandbox: countingSandbox(c.sandbox), handlers }));
  const before = { watched, model: c.model, seqs: (await store.readEvents('r')).length };
  for (const changed of [skill(), withStage('prompt-assembly')]) {
    await assert.rejects(resume(changed), (e: unknown) => {
      assert.ok(e instanceof DeterminismError);
      assert.match(e.message, /draft\/r1\/post-model\/watch.*no stage watch on the post-model rung/);
      return true;
    });
  }
  const after = await store.readEvents('r');
  assert.deepEqual({ watched, model: c.model }, { watched: before.watched, model: before.model }, 'nothing ran');
  assert.deepEqual(after.slice(before.seqs).map((e) => e.type), ['run_resumed', 'run_resumed'], 'nothing recorded but the attempts');
  // with the stage back, the same run resumes and completes
  assert.equal((await resume(withStage())).status, 'completed');
});

test('a refused stage (it never ran, contributed nothing) may be removed before a resume', async () => {
  // `net` is not granted: the stage is refused, and recorded as refused
  const withRefused = (): Plan => ({ ...skill(), stageProgram: [stage('fetcher', 'post-model', ['net'])] });
  let found: MemoryStore | null = null;
  for (let n = 1; n <= 12 && !found; n++) {
    const store = new MemoryStore();
    const c: Counters = { model: 0, sandbox: new Map() };
    const d = deps(countingModel(c), { store, fileRoot: root, sandbox: countingSandbox(c.sandbox), handlers: { fetcher: () => undefined }, faults: crashAt('before-step', n) });
    const out = await startRun(withRefused(), d, { input: {}, skillText: '', runId: 'r' }).catch((e: unknown) => e);
    if (!(out instanceof SimulatedCrash)) continue;
    const rec = (await eventsIfRecorded(store, 'r')).find((e) => e.data.position === 'draft/r1/post-model/fetcher');
    if (rec && (await store.readSnapshot('r'))?.currentPhase === 'draft') {
      assert.equal(rec.data.status, 'refused');
      found = store;
    }
  }
  assert.ok(found, 'no crash point inside the phase after the refused stage was recorded');
  const c: Counters = { model: 0, sandbox: new Map() };
  const out = await resumeRun('r', () => skill(), deps(countingModel(c), { store: found, fileRoot: root, sandbox: countingSandbox(c.sandbox) }));
  assert.equal(out.status, 'completed');
});

test('resuming a completed run answers its recorded outcome and runs nothing again', async () => {
  const c: Counters = { model: 0, sandbox: new Map() };
  const store = new MemoryStore();
  const d = deps(countingModel(c), { store, fileRoot: root, sandbox: countingSandbox(c.sandbox) });
  const done = await startRun(skill(), d, { input: {}, skillText: '', runId: 'r' });
  assert.equal(done.status, 'completed');
  const seqs = (await store.readEvents('r')).length;
  const again = await resumeRun('r', () => skill(), d);
  assert.deepEqual(again, { runId: 'r', status: 'completed', output: done.output, error: null, report: done.report });
  assert.equal(c.model, 3);
  assert.equal(c.sandbox.get('effectful'), 1);
  assert.equal((await store.readEvents('r')).length, seqs, 'nothing recorded');
});

test('at after-artifact-persisted the finish artifact and the __post__ snapshot are committed', async () => {
  const { store } = await crashedRun('after-artifact-persisted', 1);
  assert.equal((await store.readSnapshot('r'))?.currentPhase, '__post__');
  assert.deepEqual((await store.readArtifact('r', FINISH_ARTIFACT_PATH))?.content, { body: 'hello world' });
  assert.equal((await store.readEvents('r')).at(-1)?.type, 'artifact_persisted');
});

test('an interrupted run aborted on request: one commit ends it, it is never resumed, and asking again says it has ended', async () => {
  const { store, c, sandbox } = await crashedRun('before-step', 8);
  const d = deps(countingModel(c), { store, fileRoot: root, sandbox });
  const before = (await store.readEvents('r')).length;
  const out = await abortRun('r', 'the skill changed under it', d, { via: 'app' });
  assert.equal(out.status, 'aborted');
  assert.equal(out.error?.code, 'workflow_aborted');
  // recorded as asked for, so nothing takes it for an abort a failing step caused
  assert.equal(out.error?.requestedBy, 'user');
  assert.equal(out.error?.via, 'app');
  assert.match(String(out.error?.message), /aborted on request: the skill changed under it/);
  const events = await store.readEvents('r');
  assert.equal(events.length, before + 1);
  assert.equal(events.at(-1)?.type, 'run_aborted');
  assert.equal(await store.readSnapshot('r'), null);
  assert.equal((await store.getRun('r'))?.status, 'aborted');
  assert.deepEqual(await store.listResumable(), []);
  await assert.rejects(resumeRun('r', () => skill(), d), RunNotResumableError);
  await assert.rejects(abortRun('r', 'again', d), (e: unknown) => e instanceof RunFinishedError && /already ended \(aborted\)/.test(e.message));
  await assert.rejects(abortRun('nope', 'x', d), RunNotFoundError);
  assert.equal(c.sandbox.get('effectful'), 1, 'nothing ran');
});

test('a run another process holds is not aborted from here: the request is recorded (aborting), and whoever resumes it next ends it aborted', async () => {
  const { store, c, sandbox } = await crashedRun('before-step', 8);
  const held = await store.claimRun('r');
  assert.ok(held);
  const before = (await store.readEvents('r')).length;
  const asked = await abortRun('r', 'not needed', deps(countingModel(c), { store, fileRoot: root, sandbox }), { via: 'cli', requestedBy: 'cli (user dana)' });
  assert.equal(asked.status, 'aborting');
  assert.equal((await store.readEvents('r')).length, before, 'nothing written to the log by the asker');
  assert.ok(await store.readSnapshot('r'));
  assert.deepEqual(await store.readAbortRequest('r'), { runId: 'r', reason: 'not needed', requestedBy: 'cli (user dana)', via: 'cli', requestedAt: (await store.readAbortRequest('r'))!.requestedAt });
  await held!.release();
  // its driver died: the next resume honours the request instead of resuming
  const ran = { model: c.model, sandbox: new Map(c.sandbox) };
  const out = await resumeRun('r', () => skill(), deps(countingModel(c), { store, fileRoot: root, sandbox }));
  assert.equal(out.status, 'aborted');
  assert.equal(out.error?.requestedBy, 'user');
  assert.equal(out.error?.via, 'cli');
  assert.deepEqual([c.model, c.sandbox], [ran.model, ran.sandbox], 'no step ran');
  const log = await store.readEvents('r');
  assert.equal(log.length, before + 1, 'one event: run_aborted');
  assert.deepEqual(log.at(-1)!.data.abort, { by: 'request', reason: 'not needed', requestedBy: 'cli (user dana)' });
  assert.equal(await store.readSnapshot('r'), null);
});

test('an aborted run is never resumed', async () => {
  const d = deps(playModel([{ finish: {} }]));
  const p = plan({ postprocessor: post([{ ...base, index: 0, type: 'validate', schema: { required: ['x'] } } as StepSpec]) });
  const out = await startRun(p, d, { input: {}, skillText: '' });
  assert.equal(out.status, 'aborted');
  await assert.rejects(resumeRun(out.runId, () => p, d), RunNotResumableError);
});

test('two resumers racing the same run: one drives it, the other stops cleanly as superseded', async () => {
  const { store, c, sandbox } = await crashedRun('before-postprocessor', 1);
  const [a, b] = await Promise.all([
    resumeRun('r', () => skill(), deps(countingModel(c), { store, fileRoot: root, sandbox })),
    resumeRun('r', () => skill(), deps(countingModel(c), { store, fileRoot: root, sandbox })),
  ]);
  assert.deepEqual([a.status, b.status].sort(), ['completed', 'superseded']);
  assert.equal(c.sandbox.get('effectful'), 1);
  const events = await store.readEvents('r');
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
});

test('a prompt edited after the crash stops the resume at the model step with both definitions named', async () => {
  const { store, c, sandbox } = await crashedRun('before-step', 5);
  const edited = skill();
  edited.phases.draft = { ...edited.phases.draft, prompt: 'A different prompt.' };
  await assert.rejects(resumeRun('r', () => edited, deps(countingModel(c), { store, fileRoot: root, sandbox })), (e: unknown) => {
    assert.ok(e instanceof DeterminismError);
    assert.match(e.message, /draft\/r1\/model/);
    return true;
  });
  const phaseGone = skill();
  phaseGone.phases = { other: { ...phaseGone.phases.draft, name: 'other' } };
  phaseGone.order = ['other'];
  await assert.rejects(resumeRun('r', () => phaseGone, deps(countingModel(c), { store, fileRoot: root, sandbox })), /phase "draft", which the skill no longer has/);
  assert.ok(await store.readSnapshot('r'), 'the run is left resumable');
});

test('a failed step and the abort it causes are one commit: no crash leaves a failed step without its abort', async () => {
  const failing: CodeSandbox = { async call() { throw new Error('boom'); }, async close() {} };
  const c: Counters = { model: 0, sandbox: new Map() };
  const p = skill();
  let crashes = 0;
  for (let n = 1; n < 30; n++) {
    const store = new MemoryStore();
    try {
      const out = await startRun(p, deps(countingModel(c), { store, fileRoot: root, sandbox: failing, faults: crashAt('after-commit', n) }), { input: {}, skillText: '', runId: 'r' });
      assert.equal(out.status, 'aborted');
      break;
    } catch (e) {
      assert.ok(e instanceof SimulatedCrash);
      crashes++;
    }
    const events = await store.readEvents('r').catch(() => []);
    if (events.at(-1)?.data.status === 'failed') assert.fail(`after-commit:${n} left a failed step without its abort`);
    const run = await store.getRun('r');
    if (run?.status === 'running') {
      const out = await resumeRun('r', () => p, deps(countingModel(c), { store, fileRoot: root, sandbox: failing }));
      assert.equal(out.status, 'aborted', `after-commit:${n}`);
      assert.match(String(out.error!.message), /boom/);
    }
  }
  assert.ok(crashes >= 2);
});
