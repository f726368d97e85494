// The inspector's views, built from the fold of runs that use every rule: every view parses with its
// zod view at every event; the timeline says in words what each stage, step and tool call did, names
// the refused grant, gives the reason a stage did not run, opens a failed run on what failed; the
// detail of an item carries the context it was handed (verified against its memo key); a large
// value is referenced, and the reference answers it whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunFold } from './fold';
import { buildTimeline, type RunTimeline, type TimelineTrace } from './timeline';
import { itemView, stateView, valueAt } from './inspect';
import { priceFor } from './prices';
import { deps } from './testing';
import { resumeRun, startRun } from './runner';
import { crashAt, SimulatedCrash } from './faults';
import { recordingHandlers, recordingModel, RecordingStore } from './testing-fold';
import { BIG_TEXT, INPUT, model, richPlan, richRun, root, sandbox, STAGE_RUN } from './testing-fold-scenario';
import { RunItemView, RunStateView, RunTimelineView } from '../views/inspector';
import { INLINE_VALUE_MAX_CHARS } from './values';

async function foldOf(r: { outcome: { runId: string }; store: RecordingStore }) {
  return new RunFold(r.outcome.runId, await r.store.readEvents(r.outcome.runId));
}

const traces = (t: RunTimeline): TimelineTrace[] => t.visits.flatMap((v) => v.rounds.flatMap((r) => r.lanes.flatMap((l) => l.traces)));

test('every view parses with its zod view, at every event', async () => {
  const fold = await foldOf(await richRun());
  RunTimelineView.parse(buildTimeline(fold));
  for (let k = 0; k <= fold.lastSeq; k++) {
    RunStateView.parse(stateView(fold, k));
    if (k > 0) RunItemView.parse(itemView(fold, k));
  }
});

test('the timeline says what each stage, tool call and step did, in words', async () => {
  const fold = await foldOf(await richRun());
  const t = buildTimeline(fold, { price: priceFor({ currency: 'USD', models: { 'fold-test': { input: 2, output: 10 } } }, 'fold-test') });
  const r1 = t.visits[0].rounds[0];
  const lane = (rung: string) => r1.lanes.find((l) => l.rung === rung)!.traces;
  assert.deepEqual(r1.lanes.map((l) => l.rung), ['prompt-assembly', 'post-model', 'pre-tool', 'post-tool', 'finalize']);
  assert.equal(lane('prompt-assembly')[0].summary, 'added a system message (22 characters); added 1 message');
  assert.equal(lane('pre-tool')[0].summary, 'denied call 1 (secrets are off limits); rewrote the args of call 2');
  assert.equal(lane('pre-tool')[0].label, 'pre-tool guard/guard ok');
  const sneaky = lane('pre-tool')[1];
  assert.equal(sneaky.label, 'pre-tool sneaky/sneaky refused');
  assert.equal(sneaky.summary, 'refused: missing grant net');
  assert.deepEqual(sneaky.effects, { asked: ['net'], granted: [], missing: ['net'] });
  assert.equal(lane('post-tool')[0].summary, 'trimmed result 0 from 116 to 40 characters; kept 1 text in the workspace');
  assert.equal(lane('finalize')[0].status, 'skipped');
  assert.equal(lane('finalize')[0].summary, 'skipped: the model called tools this round; finalize runs on the round it finishes');
  assert.equal(lane('finalize')[0].id, 'gather/r1/finalize/redact');
  const r2 = t.visits[0].rounds[1];
  assert.equal(r2.lanes.find((l) => l.rung === 'pre-tool')!.traces[0].summary, 'skipped: no tool calls this round');
  assert.deepEqual(
    r1.tools.map((c) => [c.id, c.status]),
    [
      ['gather/r1/tool/0', 'ok'],
      ['gather/r1/tool/1', 'denied'],
      ['gather/r1/tool/2', 'ok'],
      ['gather/r1/tool/3', 'refused'],
      ['gather/r1/tool/4', 'error'],
      ['gather/r1/tool/5', 'ok'],
    ],
  );
  assert.equal(r1.tools[1].summary, 'denied by guard: secrets are off limits');
  assert.match(r1.tools[3].summary, /^refused by the permission gate: op "http\/get" is not among phase gather's tools/);
  assert.equal(r1.model?.summary, 'called 6 tools: file/read, workspace/write, http/get');
  assert.deepEqual(r1.usage, { inputTokens: 120, outputTokens: 30, latencyMs: r1.model!.latencyMs, cost: (120 * 2 + 30 * 10) / 1e6, reused: 0 });
  assert.equal(t.visits[0].rounds[2].rejected?.errors.includes('facts'), true);
  assert.equal(t.visits[0].rounds[2].model?.finished, true);
  // steps: their accessible labels and on_error branches
  const pre = t.visits[0].pre!.steps;
  assert.deepEqual(pre.map((s) => s.label), ['gather/pre/0 validate ok', 'gather/pre/1 run_op ok', 'gather/pre/2 iterate ok', 'gather/pre/3 run_op empty']);
  assert.deepEqual(pre[2].nested, { steps: 6, failed: 0, skipped: 0, empty: 0 });
  assert.equal(pre[3].branch, 'empty');
  assert.equal(pre[3].line, 7);
  const post = t.post!.steps;
  assert.deepEqual(post.map((s) => [s.label, s.branch]), [['__post__/0 node ok', 'none'], ['__post__/1 validate skipped', 'skip'], ['__post__/2 node empty', 'empty']]);
  assert.match(post[1].summary, /^failed, skipped \(on_error: skip\): validate: .*nope/);
  assert.equal(post[2].summary, 'failed; wrote the empty value to extra (on_error: empty): KeyError: missing');
  // a completed run opens on nothing in particular; its failures are listed in order
  assert.equal(t.status, 'completed');
  assert.equal(t.selected, 'gather/r1/pre-tool/guard', 'it was blocked: it opens on the denial');
  assert.deepEqual(t.failures.slice(0, 5), ['gather/pre/3', 'gather/r1/tool/1', 'gather/r1/pre-tool/sneaky', 'gather/r1/tool/3', 'gather/r1/tool/4']);
});

test('a failed run opens on its failed stage, with its error; the rungs after it say why they did not run', async () => {
  const store = new RecordingStore();
  const run = { ...STAGE_RUN, budget: () => { throw new TypeError("Cannot read properties of null (reading 'content')"); } };
  const { handlers } = recordingHandlers(Object.keys(run), run);
  const outcome = await startRun(richPlan(), deps(model(), { store, handlers, sandbox, fileRoot: root }), { input: INPUT, skillText: '' });
  const t = buildTimeline(await foldOf({ outcome, store }));
  assert.equal(t.status, 'failed');
  assert.equal(t.selected, 'gather/r1/post-tool/budget');
  const budget = traces(t).find((x) => x.id === t.selected)!;
  assert.equal(budget.status, 'failed');
  assert.equal(budget.label, 'post-tool budget/budget failed');
  assert.equal(budget.error?.message, "Cannot read properties of null (reading 'content')");
  assert.match(budget.error?.stack ?? '', /^\s+at /, 'the stack, without the message repeated');
  assert.match(t.report.summary, /^Failed: stage budget \(capability budget\) crashed on the post-tool rung of gather, round 1/);
  assert.equal(t.report.needs_attention, true);
  const fin = traces(t).find((x) => x.id === 'gather/r1/finalize/redact')!;
  assert.equal(fin.summary, 'skipped: a stage failed on the post-tool rung; the round stopped there');
});

test('the detail of a stage is the context it was handed; a processor step, its input; all verified', async () => {
  const fold = await foldOf(await richRun());
  const seqOf = (position: string) => fold.records.get(position)![0].seq;
  const budget = itemView(fold, seqOf('gather/r1/post-tool/budget'));
  assert.ok(budget?.kind === 'stage');
  assert.equal(budget.rebuilt.verified, true);
  assert.deepEqual(budget.context.outcomes?.map((o) => o.status), ['ok', 'denied', 'ok', 'error', 'error', 'ok']);
  assert.ok(budget.context.requests![2].args.size < INLINE_VALUE_MAX_CHARS);
  assert.deepEqual((budget.context.requests?.[2].args as { value: unknown }).value, { path: 'draft-2.txt', content: 'first' });
  const step = itemView(fold, seqOf('__post__/2'));
  assert.ok(step?.kind === 'processor');
  assert.equal(step.rebuilt.verified, true);
  assert.ok('value' in step.input && typeof (step.input.value as { words: number }).words === 'number', 'the value after __post__/0 merged words');
  const turn = itemView(fold, seqOf('gather/r2/model'));
  assert.ok(turn?.kind === 'model');
  assert.equal(turn.rebuilt.verified, true);
  assert.deepEqual(turn.request.messages.map((m) => m.role).slice(0, 2), ['system', 'user']);
});

test('a large value is sent as a ref; the ref answers it whole', async () => {
  const fold = await foldOf(await richRun());
  const g = fold.visitOf('gather')!;
  const s = stateView(fold, g.rounds[1].firstSeq);
  const big = s.transcript.find((m) => m.toolCallId === 'c5')!;
  assert.ok('ref' in big.content, 'the appendix is referenced');
  assert.equal(big.content.size, BIG_TEXT.length + 2);
  assert.equal(big.content.preview, BIG_TEXT.slice(0, 240));
  assert.equal(valueAt(fold, big.content.ref.seq, big.content.ref.path), BIG_TEXT);
  assert.ok(JSON.stringify(s).length < BIG_TEXT.length, 'the state is smaller than the value it refers to');
  // the same value in an item's detail
  const item = itemView(fold, fold.records.get('gather/r1/tool/5')![0].seq)!;
  assert.ok(item.kind === 'tool' && 'ref' in item.output);
  assert.equal(valueAt(fold, item.output.ref.seq, item.output.ref.path), BIG_TEXT);
  assert.equal(valueAt(fold, 3, 'state/nowhere/at/all'), undefined);
});

test('after a crash and a resume, the steps the resume answered from the log say so', async () => {
  const store = new RecordingStore();
  const { handlers } = recordingHandlers(Object.keys(STAGE_RUN), STAGE_RUN);
  let runId = '';
  const d = deps(recordingModel(model()), { store, handlers, sandbox, fileRoot: root, faults: crashAt('before-step', 24) });
  await assert.rejects(startRun(richPlan(), d, { input: INPUT, skillText: '', onCreated: (id) => (runId = id) }), SimulatedCrash);
  const out = await resumeRun(runId, () => richPlan(), deps(model(), { store, handlers, sandbox, fileRoot: root }));
  assert.equal(out.status, 'completed');
  const fold = new RunFold(runId, await store.readEvents(runId));
  const t = buildTimeline(fold);
  const resume = t.resumes[0].seq;
  const r1 = t.visits[0].rounds[0];
  assert.equal(r1.model?.answeredFromLog, resume, 'the model turn was answered from the log');
  assert.equal(r1.lanes[0].traces[0].answeredFromLog, resume);
  assert.equal(r1.tools[0].answeredFromLog, null, 'a world read ran again');
  assert.equal(t.visits[0].pre!.steps[0].answeredFromLog, resume);
  assert.equal(t.visits[0].pre!.steps[1].answeredFromLog, null, 'its run_op read the world again');
});

test('a run that failed by itself (max_rounds) opens on the report, which says why', async () => {
  const { plan, phase, playModel } = await import('./testing');
  const d = deps(playModel([{ text: 'hmm' }, { text: 'still thinking' }]));
  const out = await startRun(plan({ phases: { main: phase('main', { maxRounds: 2 }) } }), d, { input: {}, skillText: '' });
  assert.equal(out.status, 'failed');
  const t = buildTimeline(new RunFold(out.runId, await d.store.readEvents(out.runId)));
  assert.equal(t.selected, 'run');
  assert.match(t.report.summary, /^Failed: phase main did not finish within max_rounds \(2\)/);
  assert.equal(t.report.error?.code, 'max_rounds_exceeded');
  assert.equal(t.report.error?.position, null);
  const r2 = t.visits[0].rounds[1];
  assert.equal(r2.model?.summary, 'replied (14 characters), without finishing');
});
