// The journal's durability rule, as the store sees it: which events share a
// commit, and which commits may be lazy (acknowledged before they are on disk)
// because a resume recomputes them from pure work.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Journal } from './journal';
import { MemoryStore } from './memory-store';
import { NO_FAULTS } from './faults';
import type { CommitUnit } from './ports';
import { deps, plan, playModel, post, runWith, testClock } from './testing';
import type { StepSpec } from './plan';
import { EVENT } from './events';

class RecordingStore extends MemoryStore {
  units: CommitUnit[] = [];
  override async commit(runId: string, unit: CommitUnit) {
    this.units.push(unit);
    return super.commit(runId, unit);
  }
}

async function journalOn(store: RecordingStore) {
  await store.createRun(
    { id: 'r', skillName: 's', skillHash: 'h', skillText: '', bundleDir: '/', skillVersionId: null, input: {}, model: 'm', status: 'running', output: null, error: null, report: null, parentRunId: null, createdAt: 0, updatedAt: 0 },
    { events: [{ runId: 'r', seq: 1, type: EVENT.runStarted, at: 0, data: {} }] },
  );
  store.units = []; // the run's creation is not the journal's
  return new Journal('r', store, testClock(), NO_FAULTS, 1);
}

const shape = (u: CommitUnit) => ({ types: u.events.map((e) => e.type), lazy: u.lazy === true });

test('pure events wait for the settling event and commit with it, lazily', async () => {
  const store = new RecordingStore();
  const j = await journalOn(store);
  await j.append('a', {}, 'group');
  await j.beforeStep();
  await j.append('b', {}, 'group');
  assert.equal(store.units.length, 0, 'nothing is due before a step when only pure events are pending');
  await j.append('end', {}, 'settle');
  assert.deepEqual(store.units.map(shape), [{ types: ['a', 'b', 'end'], lazy: true }]);
});

test('an effectful event is due before the next step and makes its whole unit durable', async () => {
  const store = new RecordingStore();
  const j = await journalOn(store);
  await j.append('pure', {}, 'group');
  await j.append('effect', {}, 'step');
  await j.append('merge', {}, 'group'); // work between steps shares the commit
  assert.equal(store.units.length, 0);
  await j.beforeStep();
  await j.append('pure2', {}, 'group');
  await j.append('end', {}, 'settle');
  assert.deepEqual(store.units.map(shape), [
    { types: ['pure', 'effect', 'merge'], lazy: false },
    { types: ['pure2', 'end'], lazy: true },
  ]);
});

test('`now` commits at once and durably; so does a settle that shares a unit with an effectful event', async () => {
  const store = new RecordingStore();
  const j = await journalOn(store);
  await j.append('failed', {}, 'now');
  await j.append('effect', {}, 'step');
  await j.append('end', {}, 'settle');
  assert.deepEqual(store.units.map(shape), [
    { types: ['failed'], lazy: false },
    { types: ['effect', 'end'], lazy: false },
  ]);
});

const base = { onError: 'fail' as const, emptyValue: null, line: 1 };
const validate = (index: number, schema: object): StepSpec => ({ ...base, index, type: 'validate', schema }) as StepSpec;

test('a run: its model turn and finish artifact are durable; a completion by pure steps is lazy; an abort is not', async () => {
  for (const [schema, status, lastLazy] of [
    [{ type: 'object' }, 'completed', true],
    [{ type: 'object', required: ['missing'] }, 'aborted', false],
  ] as const) {
    const store = new RecordingStore();
    const d = deps(playModel([{ finish: { title: 'x' } as never }]), { store });
    const out = await runWith(plan({ postprocessor: post([validate(0, schema), validate(1, { type: 'object' })]) }), d);
    assert.equal(out.status, status);
    const units = store.units.map(shape);
    assert.ok(units.length >= 2, JSON.stringify(units));
    const finish = units.find((u) => u.types.includes(EVENT.artifactPersisted))!;
    assert.equal(finish.lazy, false, 'the finish artifact is on disk before the postprocessor starts');
    assert.ok(finish.types.includes(EVENT.stepCompleted), 'the model turn commits with it');
    assert.equal(units.at(-1)!.lazy, lastLazy, JSON.stringify(units.at(-1)));
  }
});
