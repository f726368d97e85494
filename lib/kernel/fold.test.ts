// The fold against the kernel on runs that use every rule it reads: tool batches with a denial, an
// args rewrite, a call the gate refuses and one that errors; a round that neither calls nor
// finishes; a finish rejected then accepted; a phase that loops back to itself; pre- and
// postprocessor chains with run_op, nested iterates, skip, empty and fail; refused and failed
// stages; a crash at every commit boundary, then resume; an abort on request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deps } from './testing';
import { abortRun, resumeRun, startRun } from './runner';
import { crashAt, FAULT_POINTS, SimulatedCrash } from './faults';
import { checkFold, recordingHandlers, recordingModel, RecordingStore } from './testing-fold';
import { base, INPUT, model, richPlan, richRun, root, sandbox, STAGE_RUN } from './testing-fold-scenario';
import { stateAt, changedPaths } from './fold-state';
import { RunFold } from './fold';
import { RunEventView } from '../views/events';
import { deriveReport } from './report';

function requireParsed(events: { runId: string; seq: number }[]): void {
  for (const e of events) {
    const { runId: _r, ...wire } = e;
    assert.deepEqual(RunEventView.parse(wire), wire, `event ${e.seq} parses whole`);
  }
}

test('every rule of a round, a loop, and both chains: the fold equals what the kernel had', async () => {
  const r = await richRun();
  assert.equal(r.outcome.status, 'completed', JSON.stringify(r.outcome.error));
  requireParsed(await r.store.readEvents(r.outcome.runId));
  const { fold } = await checkFold({ store: r.store, runId: r.outcome.runId, requests: r.requests, contexts: r.contexts });
  assert.deepEqual(
    fold.visits.map((v) => [v.key, v.rounds.length]),
    [['gather', 4], ['gather#2', 1], ['write', 1]],
  );
  const end = stateAt(fold, fold.lastSeq);
  assert.deepEqual(end.output, r.outcome.output);
  assert.deepEqual((end.output as { extra: unknown }).extra, {}, 'on_error: empty wrote the empty value');
  // the first visit's transcript: record_tools with the rewrite, the denial, the refusal, the error, the cut
  const g = fold.visitOf('gather')!;
  const t = stateAt(fold, g.endSeq!).transcript;
  const tools = t.filter((m) => m.role === 'tool').map((m) => m.content);
  assert.equal(tools.length, 6);
  assert.match(tools[0], /…$/);
  assert.equal(tools[1], 'denied: secrets are off limits');
  assert.equal(tools[2], '{"path":"draft-2.txt"}');
  assert.match(tools[3], /^error \(grant_refused\): op "http\/get" is not among phase gather's tools/);
  assert.match(tools[4], /^error \(op_failed\): file\/read: cannot read missing\.txt/);
  assert.ok(t.some((m) => m.role === 'user' && m.content.startsWith('Continue.')));
  assert.ok(t.some((m) => m.role === 'user' && m.content.startsWith('Your finish artifact does not satisfy the output schema')));
  assert.ok(end.workspace.some((w) => w.path === 'draft-2.txt' && w.content === 'first'), 'the rewritten write landed where the guard sent it');
  assert.ok(end.workspace.some((w) => w.path === 'item-1.txt' && w.content === 'v1'), 'a nested run_op wrote its rendered content');
});

test('the state at every k is JSON, stable, and says what each event changed', async () => {
  const r = await richRun();
  const fold = new RunFold(r.outcome.runId, await r.store.readEvents(r.outcome.runId));
  let prev = stateAt(fold, 0);
  // before its first event the run has not started: queued, as its record reads until then
  assert.equal(prev.status, 'queued');
  assert.ok(changedPaths(prev, stateAt(fold, 1)).includes('/status'), 'run_started makes it running');
  assert.equal(prev.phase, null);
  for (let k = 1; k <= fold.lastSeq; k++) {
    const s = stateAt(fold, k);
    assert.deepEqual(JSON.parse(JSON.stringify(s)), s, `state ${k} is plain JSON`);
    assert.deepEqual(stateAt(fold, k), s, `state ${k} is the same when read again`);
    const changed = changedPaths(prev, s);
    if (fold.events[k - 1].type === 'step_completed') assert.ok(changed.includes('/counts'), `event ${k} counts a step`);
    prev = s;
  }
  // in the preprocessor the chain is current; in rounds it is not
  const g = fold.visitOf('gather')!;
  const inPre = stateAt(fold, g.pre!.steps[1].seq);
  assert.equal(inPre.chain?.prefix, 'gather/pre');
  assert.ok('note' in inPre.chain!.value);
  assert.equal(stateAt(fold, g.rounds[0].model!.seq).chain, null);
  // inside the nested iterate, the element being worked on
  const nested = fold.processors.find((p) => p.data.position === 'gather/pre/2/0/1/0/0')!;
  const inIterate = stateAt(fold, nested.seq);
  assert.deepEqual(inIterate.chain?.element, { prefix: 'gather/pre/2/0/1/0', value: { a: 1 }, step: 'gather/pre/2/0/1/0/0' });
});

test('a failed postprocessor step aborts the run, and the log says which step and why', async () => {
  const p = richPlan([{ ...base, index: 0, type: 'validate', schema: { type: 'object', required: ['nope'] } }]);
  const r = await richRun(p);
  assert.equal(r.outcome.status, 'aborted');
  const events = await r.store.readEvents(r.outcome.runId);
  requireParsed(events);
  const last = events[events.length - 1];
  assert.deepEqual(last.data.abort, { by: 'step', phase: '__post__', position: '__post__/0', index: 0, type: 'validate', onError: 'fail' });
  const { fold } = await checkFold({ store: r.store, runId: r.outcome.runId, requests: r.requests, contexts: r.contexts });
  assert.equal(stateAt(fold, fold.lastSeq).status, 'aborted');
});

test('a refused stage and a crashed one are recorded; the fold still equals the kernel', async () => {
  const p = richPlan();
  const store = new RecordingStore();
  const m = recordingModel(model());
  const run = { ...STAGE_RUN, budget: () => { throw new TypeError("Cannot read properties of null (reading 'content')"); } };
  const { handlers, contexts } = recordingHandlers(Object.keys(run), run);
  const outcome = await startRun(p, deps(m, { store, handlers, sandbox, fileRoot: root }), { input: INPUT, skillText: '' });
  assert.equal(outcome.status, 'failed');
  const events = await store.readEvents(outcome.runId);
  requireParsed(events);
  assert.ok(events.some((e) => e.data.stage === 'sneaky' && e.data.status === 'refused'));
  assert.ok(events.some((e) => e.data.stage === 'budget' && e.data.status === 'failed'));
  await checkFold({ store, runId: outcome.runId, requests: m.requests, contexts });
});

test('crashed at every commit boundary and resumed: the fold of the finished log still equals what the kernel had', async () => {
  const uninterrupted = await richRun();
  let crashes = 0;
  for (const point of FAULT_POINTS) {
    for (let n = 1; n < 40; n++) {
      const store = new RecordingStore();
      const { handlers } = recordingHandlers(Object.keys(STAGE_RUN), STAGE_RUN);
      const d = deps(model(), { store, handlers, sandbox, fileRoot: root, faults: crashAt(point, n) });
      let runId = '';
      try {
        await startRun(richPlan(), d, { input: INPUT, skillText: '', runId: 'run_crash', onCreated: (id) => (runId = id) });
        break; // the run finished before the n-th hit: later n crash nowhere either
      } catch (e) {
        if (!(e instanceof SimulatedCrash)) throw new Error(`${point} #${n}: ${String(e)}`, { cause: e });
      }
      crashes++;
      const resumed = await resumeRun(runId, () => richPlan(), deps(model(), { store, handlers, sandbox, fileRoot: root }));
      assert.equal(resumed.status, 'completed', `${point} #${n}: ${JSON.stringify(resumed.error)}`);
      assert.deepEqual(resumed.output, uninterrupted.outcome.output);
      requireParsed(await store.readEvents(runId));
      const { fold } = await checkFold({ store, runId });
      assert.deepEqual(stateAt(fold, fold.lastSeq).output, resumed.output);
    }
  }
  assert.ok(crashes > 20, `${crashes} crashes`);
});

test('an abort on request records who asked and why', async () => {
  const store = new RecordingStore();
  const d = deps(model(), { store, sandbox, fileRoot: root, faults: crashAt('before-step', 3) });
  let runId = '';
  await assert.rejects(startRun(richPlan(), d, { input: INPUT, skillText: '', onCreated: (id) => (runId = id) }), SimulatedCrash);
  const out = await abortRun(runId, 'not needed any more', d, { requestedBy: 'cli (user dana)' });
  assert.equal(out.status, 'aborted');
  const events = await store.readEvents(runId);
  requireParsed(events);
  assert.deepEqual(events[events.length - 1].data.abort, { by: 'request', reason: 'not needed any more', requestedBy: 'cli (user dana)' });
  const { fold } = await checkFold({ store, runId });
  const s = stateAt(fold, fold.lastSeq);
  assert.equal(s.status, 'aborted');
  assert.equal(s.resume, null);
});


test('a call a pre-tool stage denied is one of the tool calls: counted as denied in the report and in the state at each step', async () => {
  const r = await richRun();
  const events = await r.store.readEvents(r.outcome.runId);
  const fold = new RunFold(r.outcome.runId, events);
  const denial = events.find((e) => e.type === 'step_completed' && e.data.rung === 'pre-tool' && JSON.stringify(e.data.output).includes('"deny"'));
  assert.ok(denial, 'the scenario has a denial');
  // the round's six calls: five dispatched (ok, ok, refused by the gate, error, ok) and one denied
  const report = deriveReport(events);
  assert.equal(report.step_counts.tool_by_status.denied, 1);
  assert.equal(report.step_counts.tool, Object.values(report.step_counts.tool_by_status).reduce((a, b) => a + b, 0));
  assert.equal(report.step_counts.tool, events.filter((e) => e.type === 'step_completed' && e.data.kind === 'tool').length + 1);
  assert.equal(stateAt(fold, denial.seq - 1).counts.tool.denied, 0);
  assert.equal(stateAt(fold, denial.seq).counts.tool.denied, 1, 'counted at the denial');
  const end = stateAt(fold, fold.lastSeq).counts.tool;
  assert.deepEqual(end, { ok: report.step_counts.tool_by_status.ok, failed: 0, refused: 1, skipped: 0, empty: 0, error: report.step_counts.tool_by_status.error, denied: 1 });
});
