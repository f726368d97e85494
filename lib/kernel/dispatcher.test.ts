import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StageDispatcher, requireNoCrashedStage } from './dispatcher';
import { StageCrashedError } from './errors';
import { stage, testClock, testIds } from './testing';
import type { StageContext } from './stage-types';

const meta = { runId: 'r1', phase: 'draft', round: 2 };
const ctxFor = (s: { name: string }) => ({ runId: 'r1', phase: 'draft', round: 2, rung: 'post-tool', stage: s.name, with: {} }) as StageContext;

test('a stage whose effects are not all granted is refused and its handler is never entered', async () => {
  let entered = 0;
  const d = new StageDispatcher(async () => void entered++, testClock(), testIds());
  const results = await d.runPhase(
    [stage('budget', 'post-tool', ['transcript.write', 'fs.read'])],
    'post-tool',
    ctxFor,
    new Set(['transcript.write']),
    meta,
  );
  assert.equal(entered, 0);
  assert.equal(results[0].trace.status, 'refused');
  assert.deepEqual(results[0].trace.effects, { asked: ['transcript.write', 'fs.read'], granted: ['transcript.write'], missing: ['fs.read'] });
  assert.match(results[0].trace.error!.message, /fs\.read not granted/);
});

test('a granted stage is entered with its rung context and its trace is ok', async () => {
  const seen: StageContext[] = [];
  const d = new StageDispatcher(async (_s, c) => (seen.push(c), { outcomes: { 0: { content: 'x' } } }), testClock(), testIds());
  const results = await d.runPhase([stage('budget', 'post-tool', ['transcript.write'])], 'post-tool', ctxFor, new Set(['transcript.write']), meta);
  assert.equal(seen.length, 1);
  assert.equal(seen[0].stage, 'budget');
  assert.equal(results[0].trace.status, 'ok');
  assert.deepEqual(results[0].contribution, { outcomes: { 0: { content: 'x' } } });
  assert.equal(results[0].trace.round, 2);
  assert.equal(results[0].trace.phase, 'draft');
});

test('only stages on the dispatched rung run, in program order', async () => {
  const order: string[] = [];
  const d = new StageDispatcher(async (s) => void order.push(s.name), testClock(), testIds());
  await d.runPhase(
    [stage('a', 'post-model'), stage('b', 'post-tool'), stage('c', 'post-model')],
    'post-model',
    ctxFor,
    new Set(),
    meta,
  );
  assert.deepEqual(order, ['a', 'c']);
});

test('a raise is a failed trace with message and stack, and requireNoCrashedStage ends the turn', async () => {
  const d = new StageDispatcher(
    async () => {
      throw new TypeError('boom in handler');
    },
    testClock(),
    testIds(),
  );
  const results = await d.runPhase([stage('fab', 'post-model')], 'post-model', ctxFor, new Set(), meta);
  assert.equal(results[0].trace.status, 'failed');
  assert.equal(results[0].trace.error!.message, 'boom in handler');
  assert.match(results[0].trace.error!.stack!, /TypeError: boom in handler/);
  assert.throws(
    () => requireNoCrashedStage(results, 'draft'),
    (e: unknown) => e instanceof StageCrashedError && e.code === 'stage_crashed' && e.location.stage === 'fab' && e.location.rung === 'post-model',
  );
});

test('a contribution key the rung does not honour, or whose effect was not declared, is not applied and is recorded', async () => {
  const d = new StageDispatcher(async () => ({ artifact: { x: 1 }, outcomes: { 0: { content: 'y' } } }), testClock(), testIds());
  const [r] = await d.runPhase([stage('s', 'post-tool', [])], 'post-tool', ctxFor, new Set(), meta);
  assert.deepEqual(r.contribution, {});
  assert.equal(r.trace.notApplied.length, 2);
  const reasons = r.trace.notApplied.map((n) => String(n.reason)).join('\n');
  assert.match(reasons, /does not honour "artifact"/);
  assert.match(reasons, /needs effect transcript\.write/);
});

test('runPhase requires grants: omitting them is a type error', () => {
  const d = new StageDispatcher(async () => undefined, testClock(), testIds());
  // @ts-expect-error grants is a required argument — a missing one must not compile
  const call = () => d.runPhase([], 'post-tool', ctxFor);
  assert.equal(typeof call, 'function');
});
