// An abort asked for while the run is driven: the driver hears of the request, cuts the step in
// flight short through the port's signal, and ends the run aborted on request in one commit;
// nothing the run committed is lost and nothing runs after it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deps, phase, plan, playModel, post } from './testing';
import { abortRun, startRun } from './runner';
import type { StepSpec } from './plan';
import type { CallOptions, CodeCall, CodeSandbox, ModelPort } from './ports';
import { EVENT } from './events';

const base = { onError: 'fail' as const, emptyValue: null, line: 1 };
const code = (index: number, fn: string, over: Partial<StepSpec> = {}): StepSpec =>
  ({ ...base, index, type: 'node', module: './x.mjs', modulePath: '/x.mjs', function: fn, timeoutMs: 60_000, pure: false, ...over }) as StepSpec;

/** `slow` waits until its call is aborted (what a killed worker does); the others answer at once */
function hangingSandbox() {
  const calls: string[] = [];
  let startedSlow: () => void = () => {};
  const slowStarted = new Promise<void>((r) => (startedSlow = r));
  const seen = { aborted: false };
  const sandbox: CodeSandbox = {
    call(c: CodeCall, opts: CallOptions = {}) {
      calls.push(c.exportName);
      if (c.exportName !== 'slow') return Promise.resolve({ [c.exportName]: true });
      startedSlow();
      return new Promise((_, reject) =>
        opts.signal?.addEventListener('abort', () => {
          seen.aborted = true;
          reject(new Error('worker killed'));
        }),
      );
    },
    async close() {},
  };
  return { sandbox, calls, slowStarted, seen };
}

const skill = (steps: StepSpec[]) => plan({ phases: { draft: phase('draft', { successors: [], isTerminal: true }) }, postprocessor: post(steps) });

test('a code step in flight is cut short: its call is aborted, the run ends aborted on request, no later step runs', async () => {
  const sb = hangingSandbox();
  const d = deps(playModel([{ finish: { x: 1 } }]), { sandbox: sb.sandbox });
  const run = startRun(skill([code(0, 'first'), code(1, 'slow'), code(2, 'after')]), d, { input: {}, skillText: '', runId: 'r' });
  await sb.slowStarted;
  const asked = await abortRun('r', 'not needed any more', { store: d.store, clock: d.clock }, { via: 'app', requestedBy: 'the app' });
  assert.equal(asked.status, 'aborting', 'this process drives it: the request is left to its driver');
  const out = await run;
  assert.equal(out.status, 'aborted');
  assert.ok(sb.seen.aborted, "the step's call was aborted");
  assert.deepEqual(sb.calls, ['first', 'slow'], 'nothing ran after the abort');
  assert.deepEqual([out.error?.code, out.error?.requestedBy, out.error?.via], ['workflow_aborted', 'user', 'app']);
  assert.match(String(out.error?.message), /aborted on request: not needed any more/);
  const log = await d.store.readEvents('r');
  const last = log.at(-1)!;
  assert.equal(last.type, EVENT.runAborted);
  assert.deepEqual(last.data.abort, { by: 'request', reason: 'not needed any more', requestedBy: 'the app' });
  // what was committed is kept; the step cut short recorded nothing
  const steps = log.filter((e) => e.type === EVENT.stepCompleted && String(e.data.position).startsWith('__post__'));
  assert.deepEqual(steps.map((e) => [e.data.position, e.data.status]), [['__post__/0', 'ok']]);
  assert.deepEqual(log.map((e) => e.seq), log.map((_, i) => i + 1), 'gap-free');
  assert.equal((await d.store.getRun('r'))?.status, 'aborted');
  assert.equal(await d.store.readSnapshot('r'), null);
  assert.match(String((out.report as { summary?: string } | null)?.summary), /on request by the app: not needed any more/);
  // the step in flight is named in the run's error, with how long it had run (nothing else records it)
  const cut = out.error?.cutShort as { position: string; kind: string; ranMs: number } | undefined;
  assert.deepEqual([cut?.position, cut?.kind], ['__post__/1', 'processor']);
  assert.ok(typeof cut?.ranMs === 'number' && cut.ranMs > 0, JSON.stringify(cut));
  assert.deepEqual((last.data.error as { cutShort?: unknown }).cutShort, cut, 'the run_aborted event holds it');
});

test('the step cut short: how long it had run is read off the injected clock', async () => {
  const sb = hangingSandbox();
  let t = 1_000;
  const d = deps(playModel([{ finish: {} }]), { sandbox: sb.sandbox, clock: { now: () => t } });
  const run = startRun(skill([code(0, 'slow')]), d, { input: {}, skillText: '', runId: 'c' });
  await sb.slowStarted;
  t += 5_800;
  await abortRun('c', 'too slow', { store: d.store, clock: d.clock });
  const out = await run;
  assert.deepEqual(out.error?.cutShort, { position: '__post__/0', kind: 'processor', ranMs: 5_800 });
});

test("a step's on_error does not absorb the abort: the step cut short is not a failed step", async () => {
  const sb = hangingSandbox();
  const d = deps(playModel([{ finish: {} }]), { sandbox: sb.sandbox });
  const run = startRun(skill([code(0, 'slow', { onError: 'skip' }), code(1, 'after')]), d, { input: {}, skillText: '', runId: 'r' });
  await sb.slowStarted;
  await abortRun('r', 'stop', { store: d.store, clock: d.clock });
  const out = await run;
  assert.equal(out.status, 'aborted');
  assert.deepEqual(sb.calls, ['slow']);
  const log = await d.store.readEvents('r');
  assert.equal(log.filter((e) => e.type === EVENT.stepCompleted && e.data.kind === 'processor').length, 0, 'no failed step recorded');
});

test('a model call in flight is aborted through its signal', async () => {
  let signal: AbortSignal | undefined;
  let called: () => void = () => {};
  const calledP = new Promise<void>((r) => (called = r));
  const model: ModelPort = {
    name: 'hanging',
    invoke: (_req, opts) =>
      new Promise((_, reject) => {
        signal = opts?.signal;
        called();
        opts?.signal?.addEventListener('abort', () => reject(new Error('request aborted')));
      }),
  };
  const d = deps(model);
  const run = startRun(skill([]), d, { input: {}, skillText: '', runId: 'm' });
  await calledP;
  await abortRun('m', 'too slow', { store: d.store, clock: d.clock }, { via: 'cli', requestedBy: 'cli (user dana)' });
  const out = await run;
  assert.equal(out.status, 'aborted');
  assert.ok(signal?.aborted, 'the model call got the signal, and it was aborted');
  const log = await d.store.readEvents('m');
  assert.equal(log.filter((e) => e.type === EVENT.stepCompleted).length, 0, 'the model turn cut short is not recorded');
  assert.deepEqual(log.at(-1)!.data.abort, { by: 'request', reason: 'too slow', requestedBy: 'cli (user dana)' });
  assert.deepEqual([(out.error?.cutShort as { position?: string } | undefined)?.position, (out.error?.cutShort as { kind?: string } | undefined)?.kind], ['draft/r1/model', 'model']);
});

test('a request made before a step starts stops the run there; the first request is the one kept', async () => {
  const d = deps(playModel([{ finish: {} }]));
  const sb = hangingSandbox();
  d.sandbox = sb.sandbox;
  const run = startRun(skill([code(0, 'slow'), code(1, 'after')]), d, { input: {}, skillText: '', runId: 'q' });
  await sb.slowStarted;
  await d.store.requestAbort({ runId: 'q', reason: 'first', requestedBy: 'a', via: null, requestedAt: 1 });
  const second = await d.store.requestAbort({ runId: 'q', reason: 'second', requestedBy: 'b', via: 'cli', requestedAt: 2 });
  assert.equal(second.reason, 'first');
  const out = await run;
  assert.match(String(out.error?.message), /aborted on request: first/);
  assert.equal(out.error?.via, undefined);
});

// `stagecraft abort` exited 1 on a loaded machine ("Run … is being driven by another process: seq 7 was
// already written (run_aborted)"): the driver lets go of its claim in the statement of the run's last
// commit, so the abort took the claim before that commit was seen, and ended the run itself — while the
// driver, which had heard the request, ended it first. That is the abort landing
test('an abort whose driver ends the run on the request while the aborter ends it too lands once, as aborted', async () => {
  const sb = hangingSandbox();
  const d = deps(playModel([{ finish: { x: 1 } }]), { sandbox: sb.sandbox });
  const run = startRun(skill([code(0, 'first'), code(1, 'slow')]), d, { input: {}, skillText: '', runId: 'r' });
  await sb.slowStarted;
  const before = await d.store.getRun('r');
  let reads = 0;
  // the aborter's view: the claim is free (the driver let go of it with its last commit), and it read
  // the run and its log just before that commit was seen
  const store = new Proxy(d.store, {
    get(target, prop) {
      if (prop === 'claimRun') return async () => ({ release: async () => {} });
      if (prop === 'getRun') return async (id: string) => (reads++ < 2 ? before : target.getRun(id));
      if (prop === 'readEvents')
        return async (...a: Parameters<typeof target.readEvents>) => {
          const stale = await target.readEvents(...a);
          await run;
          return stale;
        };
      const v = target[prop as keyof typeof target];
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const asked = await abortRun('r', 'not needed', { store, clock: d.clock }, { via: 'cli' });
  assert.equal(asked.status, 'aborted');
  assert.match(String((asked as { error: { message?: string } | null }).error?.message), /aborted on request: not needed/);
  const log = await d.store.readEvents('r');
  assert.deepEqual(log.filter((e) => e.type === EVENT.runAborted).length, 1, 'one end recorded, the driver’s');
  assert.equal((await run).status, 'aborted');
});
