// untilAbortRequested: a step in flight is cut short by its run's abort request. A run's steps share
// one 'abort' listener on its signal (added with the first step): each step's waiter is dropped when
// the step settles, and an abort rejects every step still in flight, in the order they started,
// with the request's reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { untilAbortRequested } from './step';

const AT = { position: 'draft/r1/model', kind: 'model' as const };
const clock = { now: () => 0 };

/** an abort controller whose signal counts the 'abort' listeners added to it */
function countedSignal() {
  const cancel = new AbortController();
  const added = { n: 0 };
  const add = cancel.signal.addEventListener.bind(cancel.signal);
  cancel.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
    added.n++;
    add(...args);
  }) as AbortSignal['addEventListener'];
  return { cancel, ctx: { abort: { request: null, signal: cancel.signal }, deps: { clock } } as Parameters<typeof untilAbortRequested>[0], added };
}

test('the steps of a run add one listener to its signal, however many there are', async () => {
  const { ctx, added } = countedSignal();
  for (let i = 0; i < 50; i++) assert.equal(await untilAbortRequested(ctx, Promise.resolve(i), AT, 0), i);
  await assert.rejects(untilAbortRequested(ctx, Promise.reject(new Error('step failed')), AT, 0), /step failed/);
  assert.equal(added.n, 1);
});

test('an abort rejects every step in flight with its reason, and none that settled before it', async () => {
  const { cancel, ctx } = countedSignal();
  const order: string[] = [];
  const settled = untilAbortRequested(ctx, Promise.resolve('done'), AT, 0);
  assert.equal(await settled, 'done');
  const never = new Promise<string>(() => undefined);
  const first = untilAbortRequested(ctx, never, AT, 0).catch((e: unknown) => (order.push('first'), e));
  const second = untilAbortRequested(ctx, never, AT, 0).catch((e: unknown) => (order.push('second'), e));
  const reason = new Error('asked to abort');
  cancel.abort(reason);
  assert.equal(await first, reason);
  assert.equal(await second, reason);
  assert.deepEqual(order, ['first', 'second']);
  // once aborted, a step is refused at once (its work is left to fail quietly)
  await assert.rejects(untilAbortRequested(ctx, Promise.reject(new Error('ignored')), AT, 0), (e) => e === reason);
});

test('without an abort port the work is returned as it is', async () => {
  const work = Promise.resolve(7);
  assert.equal(untilAbortRequested({ deps: { clock } }, work, AT, 0), work);
});

test('a step cut short by an abort fails later quietly: its work rejecting then is no unhandled rejection', async () => {
  const { cancel, ctx } = countedSignal();
  let fail: (e: Error) => void = () => undefined;
  const work = new Promise<string>((_, reject) => (fail = reject));
  const step = untilAbortRequested(ctx, work, AT, 0);
  const reason = new Error('asked to abort');
  cancel.abort(reason);
  await assert.rejects(step, (e) => e === reason);
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  try {
    fail(new Error('the worker was killed'));
    await new Promise((r) => setTimeout(r, 20));
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  assert.deepEqual(unhandled, []);
});

test('an abort names the step it cut short, the first in flight, with how long it had run; a step that settled is never named', async () => {
  const cancel = new AbortController();
  let t = 100;
  const ctx: Parameters<typeof untilAbortRequested>[0] = { abort: { request: null, signal: cancel.signal }, deps: { clock: { now: () => t } } };
  await untilAbortRequested(ctx, Promise.resolve(1), { position: 'draft/r1/model', kind: 'model' }, 0);
  assert.equal(ctx.cutShort, undefined);
  const never = new Promise<never>(() => undefined);
  const outer = untilAbortRequested(ctx, never, { position: '__post__/2', kind: 'processor' }, 40).catch(() => undefined);
  const inner = untilAbortRequested(ctx, never, { position: '__post__/2/0', kind: 'processor' }, 90).catch(() => undefined);
  t = 2_540;
  cancel.abort(new Error('asked'));
  await Promise.all([outer, inner]);
  assert.deepEqual(ctx.cutShort, { position: '__post__/2', kind: 'processor', ranMs: 2_500 });
});
