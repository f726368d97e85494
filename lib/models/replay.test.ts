import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReplayModel, positionKey } from './replay';
import { ModelError } from '../kernel/errors';
import type { ModelTurn } from '../kernel/ports';
import { req } from './testing';

const turn = (text: string): ModelTurn => ({ text, toolCalls: [], finish: null });

test('replay: serves recorded turns by position, in any order', async () => {
  const model = createReplayModel([
    { phase: 'draft', round: 1, turn: turn('d1') },
    { phase: 'draft', round: 2, turn: { text: '', toolCalls: [], finish: { title: 'T' } } },
    { phase: 'review', round: 1, turn: turn('r1') },
    { phase: 'draft', round: 1, visit: 2, turn: turn('d1 again') },
  ]);
  assert.equal((await model.invoke(req('draft', 2))).finish?.title, 'T');
  assert.equal((await model.invoke(req('draft', 2))).finish?.title, 'T');
  assert.equal((await model.invoke(req('review', 1))).text, 'r1');
  assert.equal((await model.invoke(req('draft', 1))).text, 'd1 again'); // second visit of draft
  assert.equal((await model.invoke(req('draft', 1, { runId: 'other' }))).text, 'd1');
});

test('replay: a map keyed by position works the same', async () => {
  const model = createReplayModel({ [positionKey('draft', 1)]: turn('a'), [positionKey('draft', 1, 2)]: turn('b') });
  assert.equal(positionKey('draft', 1, 2), 'draft#2/r1');
  assert.equal((await model.invoke(req('draft', 1))).text, 'a');
  assert.equal((await model.invoke(req('draft', 1, { visit: 2 }))).text, 'b');
  const fromMap = createReplayModel(new Map([[positionKey('x', 3), turn('c')]]), { name: 'replay:run-9' });
  assert.equal(fromMap.name, 'replay:run-9');
  assert.equal((await fromMap.invoke(req('x', 3))).text, 'c');
});

test('replay: a position nothing was recorded at is an error, not an invented turn', async () => {
  const model = createReplayModel([{ phase: 'draft', round: 1, turn: turn('d1') }]);
  await assert.rejects(model.invoke(req('draft', 2)), (e: unknown) => {
    assert.ok(e instanceof ModelError);
    assert.equal(e.code, 'replay_no_recorded_turn');
    assert.match(e.message, /draft\/r2/);
    assert.deepEqual([e.details.phase, e.details.round, e.details.visit], ['draft', 2, 1]);
    return true;
  });
});

test('replay: the served turn is a copy', async () => {
  const recorded = { text: 'x', toolCalls: [{ id: 'c', op: 'file/read', args: { path: 'a' } }], finish: null };
  const model = createReplayModel([{ phase: 'p', round: 1, turn: recorded }]);
  const served = await model.invoke(req('p', 1));
  (served.toolCalls[0].args as Record<string, unknown>).path = 'changed';
  assert.equal(recorded.toolCalls[0].args.path, 'a');
});

test('replay: two turns recorded at one position are refused up front', () => {
  assert.throws(
    () => createReplayModel([{ phase: 'p', round: 1, turn: turn('a') }, { phase: 'p', round: 1, turn: turn('b') }]),
    (e: unknown) => e instanceof ModelError && e.code === 'replay_duplicate_turn',
  );
});
