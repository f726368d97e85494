// A driver told to let go (deps.signal: a worker stopping, a lease lost) stops
// between two steps — on any rung, in a stage as in a processor step — with the
// step in flight committed and the run left resumable, never failed; a resume
// carries it to the end without running a committed step again. A queued run
// (recorded: run_started and its snapshot) is admitted by resumeRun, which says
// who drives it; abortRun ends it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deps, phase, plan, post, stage } from './testing';
import { queueRun, resumeRun, abortRun } from './runner';
import type { StepSpec } from './plan';
import type { ModelPort, ModelTurn } from './ports';
import type { StageHandler } from './stage-types';

const base = { onError: 'fail' as const, emptyValue: null, line: 1 };

function setup(abortAfterStage: string | null) {
  const ac = new AbortController();
  const ran: string[] = [];
  const handler = (name: string): StageHandler => async () => {
    ran.push(name);
    if (name === abortAfterStage) ac.abort(new Error('the worker is stopping'));
    return {};
  };
  const turns: Partial<ModelTurn>[] = [{ finish: { ok: true } }];
  const model: ModelPort = { name: 'test', invoke: async (r) => ({ text: '', toolCalls: [], finish: null, ...turns[r.round - 1] }) as ModelTurn };
  const p = plan({
    phases: { main: phase('main') },
    stageProgram: [stage('first', 'post-model'), stage('second', 'post-model'), stage('third', 'finalize')],
    postprocessor: post([{ ...base, index: 0, type: 'validate', schema: { type: 'object' } } as StepSpec]),
  });
  const handlers = { first: handler('first'), second: handler('second'), third: handler('third') };
  return { ac, ran, model, p, handlers };
}

test('a signal between two stages: released (not failed), resumable, and the resume does not run a committed stage again', async () => {
  const s = setup('first');
  const d = deps(s.model, { handlers: s.handlers, signal: s.ac.signal, driver: { kind: 'worker', worker: 'w1', host: 'h', pid: 1 } });
  const runId = await queueRun(s.p, d, { input: {}, skillText: '' });
  assert.equal((await d.store.getRun(runId))?.status, 'queued');
  assert.deepEqual((await d.store.readEvents(runId)).map((e) => e.type), ['run_started']);
  const o = await resumeRun(runId, () => s.p, d);
  assert.equal(o.status, 'released');
  assert.deepEqual(s.ran, ['first']);
  const run = await d.store.getRun(runId);
  assert.equal(run?.status, 'running');
  assert.ok(await d.store.readSnapshot(runId), 'still resumable');
  const [started, admitted] = await d.store.readEvents(runId);
  assert.equal(started.data.driver, undefined, 'recording a queued run drives nothing');
  assert.equal(started.data.queued, true);
  assert.equal(admitted.type, 'run_admitted');
  assert.deepEqual(admitted.data.driver, { kind: 'worker', worker: 'w1', host: 'h', pid: 1 });

  const d2 = { ...d, signal: undefined, driver: { kind: 'worker', worker: 'w2', host: 'h', pid: 2 } };
  const again = await resumeRun(runId, () => s.p, d2);
  assert.equal(again.status, 'completed');
  assert.deepEqual(s.ran, ['first', 'second', 'third'], 'the committed stage did not run again');
  const events = await d.store.readEvents(runId);
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
  const resumed = events.find((e) => e.type === 'run_resumed')!;
  assert.deepEqual(resumed.data.driver, { kind: 'worker', worker: 'w2', host: 'h', pid: 2 });
});

test('a signal already given: the run stops before its first step', async () => {
  const s = setup(null);
  s.ac.abort(new Error('stop'));
  const d = deps(s.model, { handlers: s.handlers, signal: s.ac.signal });
  const runId = await queueRun(s.p, d, { input: {}, skillText: '' });
  const o = await resumeRun(runId, () => s.p, d);
  assert.equal(o.status, 'released');
  assert.deepEqual(s.ran, []);
  assert.equal((await d.store.getRun(runId))?.status, 'running');
});

test('a queued run can be aborted: it is never started', async () => {
  const s = setup(null);
  const d = deps(s.model, { handlers: s.handlers });
  const runId = await queueRun(s.p, d, { input: {}, skillText: '' });
  const o = await abortRun(runId, 'nobody wants it', d);
  assert.equal(o.status, 'aborted');
  assert.deepEqual((await d.store.readEvents(runId)).map((e) => e.type), ['run_started', 'run_aborted']);
  await assert.rejects(resumeRun(runId, () => s.p, d), /aborted/);
  assert.deepEqual(s.ran, []);
});
