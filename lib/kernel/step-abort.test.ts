// untilAbortRequested: a step in flight is cut short by its run's abort request. A run's steps share
// one 'abort' listener on its signal (added with the first step): each step's waiter is dropped when
// the step settles, and an abort rejects every step still in flight, in the order they started,
// with the request's reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { untilAbortRequested } from './step';

/** an abort controller whose signal counts the 'abort' listeners added to it */
function countedSignal() {
  const cancel = new AbortController();
  const added = { n: 0 };
  const add = cancel.signal.addEventListener.bind(cancel.signal);
  cancel.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
    added.n++;
    add(...args);
  }) as AbortSignal['addEventListener'];
  return { cancel, ctx: { abort: { request: null, signal: cancel.signal } }, added };
}

test('the steps of a run add one listener to its signal, however many there are', async () => {
  const { ctx, added } = countedSignal();
  for (let i = 0; i < 50; i++) assert.equal(await untilAbortRequested(ctx, Promise.resolve(i)), i);
  await assert.rejects(untilAbortRequested(ctx, Promise.reject(new Error('step failed'))), /step failed/);
  assert.equal(added.n, 1);
});

test('an abort rejects every step in flight with its reason, and none that settled before it', async () => {
  const { cancel, ctx } = countedSignal();
  const order: string[] = [];
  const settled = untilAbortRequested(ctx, Promise.resolve('done'));
  assert.equal(await settled, 'done');
  const never = new Promise<string>(() => undefined);
  const first = untilAbortRequested(ctx, never).catch((e: unknown) => (order.push('first'), e));
  const second = untilAbortRequested(ctx, never).catch((e: unknown) => (order.push('second'), e));
  const reason = new Error('asked to abort');
  cancel.abort(reason);
  assert.equal(await first, reason);
  assert.equal(await second, reason);
  assert.deepEqual(order, ['first', 'second']);
  // once aborted, a step is refused at once (its work is left to fail quietly)
  await assert.rejects(untilAbortRequested(ctx, Promise.reject(new Error('ignored'))), (e) => e === reason);
});

test('without an abort port the work is returned as it is', async () => {
  const work = Promise.resolve(7);
  assert.equal(untilAbortRequested({}, work), work);
});

test('a step cut short by an abort fails later quietly: its work rejecting then is no unhandled rejection', async () => {
  const { cancel, ctx } = countedSignal();
  let fail: (e: Error) => void = () => undefined;
  const work = new Promise<string>((_, reject) => (fail = reject));
  const step = untilAbortRequested(ctx, work);
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
