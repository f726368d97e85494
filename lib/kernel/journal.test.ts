// The journal's durability rule, as the store sees it: which events share a
// commit, and which commits may be lazy (acknowledged before they are on disk)
// because a resume recomputes them from pure work.
import { test } from 'node:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { Journal } from './journal';
import { MemoryStore } from './memory-store';
import { NO_FAULTS } from './faults';
import type { CommitUnit } from './ports';
import { deps, phase, plan, playModel, post, runWith, stage, testClock } from './testing';
import { startRun } from './runner';
import { crashAt, SimulatedCrash } from './faults';
import type { StepSpec } from './plan';
import { EVENT } from './events';
import type { EventType } from './events';

/** the journal's rules do not depend on the event type: these tests name events by what they stand for */
const t = (name: string) => name as EventType;

class RecordingStore extends MemoryStore {
  units: CommitUnit[] = [];
  override async commit(runId: string, unit: CommitUnit) {
    this.units.push(unit);
    return super.commit(runId, unit);
  }
}

async function journalOn(store: RecordingStore) {
  await store.createRun(
    { id: 'r', skillName: 's', skillHash: 'h', skillText: '', bundleDir: '/', skillVersionId: null, input: {}, model: 'm', status: 'running', output: null, error: null, report: null, kind: 'run', parentRunId: null, forkPoint: null, createdAt: 0, updatedAt: 0 },
    { events: [{ runId: 'r', seq: 1, type: EVENT.runStarted, at: 0, data: {} }] },
  );
  store.units = []; // the run's creation is not the journal's
  return new Journal('r', store, testClock(), NO_FAULTS, 1);
}

const shape = (u: CommitUnit) => ({ types: u.events.map((e) => e.type), lazy: u.lazy === true });

test('pure events wait for the settling event and commit with it, lazily', async () => {
  const store = new RecordingStore();
  const j = await journalOn(store);
  await j.append(t('a'), {} as never, 'group');
  await j.beforeStep();
  await j.append(t('b'), {} as never, 'group');
  assert.equal(store.units.length, 0, 'nothing is due before a step when only pure events are pending');
  await j.append(t('end'), {} as never, 'settle');
  assert.deepEqual(store.units.map(shape), [{ types: ['a', 'b', 'end'], lazy: true }]);
});

test('an effectful event is due before the next step and makes its whole unit durable', async () => {
  const store = new RecordingStore();
  const j = await journalOn(store);
  await j.append(t('pure'), {} as never, 'group');
  await j.append(t('effect'), {} as never, 'step');
  await j.append(t('merge'), {} as never, 'group'); // work between steps shares the commit
  assert.equal(store.units.length, 0);
  await j.beforeStep();
  await j.append(t('pure2'), {} as never, 'group');
  await j.append(t('end'), {} as never, 'settle');
  assert.deepEqual(store.units.map(shape), [
    { types: ['pure', 'effect', 'merge'], lazy: false },
    { types: ['pure2', 'end'], lazy: true },
  ]);
});

test('a world read waits like a pure step, but the unit holding it goes to disk', async () => {
  const store = new RecordingStore();
  const j = await journalOn(store);
  await j.append(t('read'), {} as never, 'observed');
  await j.beforeStep();
  assert.equal(store.units.length, 0, 'nothing is due before the next step');
  await j.append(t('end'), {} as never, 'settle');
  assert.deepEqual(store.units.map(shape), [{ types: ['read', 'end'], lazy: false }]);
});

test('`now` commits at once and durably; so does a settle that shares a unit with an effectful event', async () => {
  const store = new RecordingStore();
  const j = await journalOn(store);
  await j.append(t('failed'), {} as never, 'now');
  await j.append(t('effect'), {} as never, 'step');
  await j.append(t('end'), {} as never, 'settle');
  assert.deepEqual(store.units.map(shape), [
    { types: ['failed'], lazy: false },
    { types: ['effect', 'end'], lazy: false },
  ]);
});

const base = { onError: 'fail' as const, emptyValue: null, line: 1 };
const validate = (index: number, schema: object): StepSpec => ({ ...base, index, type: 'validate', schema }) as StepSpec;

test('a run: its model turn, its finish artifact and its end are durable, even a completion by pure steps', async () => {
  for (const [schema, status, lastLazy] of [
    [{ type: 'object' }, 'completed', false],
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

/** A store whose database "crashed" right after acknowledging lazy commits: they are gone. */
class LosesLazyCommits extends MemoryStore {
  /** until the "crash": lazy commits are acknowledged and lost */
  losing = true;
  override async commit(runId: string, unit: CommitUnit) {
    if (unit.lazy && this.losing) return { kind: 'committed' as const };
    return super.commit(runId, unit);
  }
}

test('a completion by pure steps survives a database that loses lazy commits: the run stays completed', async () => {
  const store = new LosesLazyCommits();
  const p = plan({ postprocessor: post([validate(0, { type: 'object' }), validate(1, { type: 'object', required: ['title'] })]) });
  const first = await runWith(p, deps(playModel([{ finish: { title: 'x' } as never }]), { store }));
  assert.equal(first.status, 'completed');
  // a worker settles the run's job on this answer: had the end been lazy, the run would be `running` with no one to drive it
  const run = (await store.getRun(first.runId))!;
  assert.equal(run.status, 'completed');
  assert.deepEqual(run.output, first.output);
  const events = await store.readEvents(first.runId);
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
  assert.equal(events.at(-1)!.type, EVENT.runCompleted);
});

test('a run ends durably whether or not its postprocessor reads a file', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sc-journal-'));
  writeFileSync(path.join(root, 'a.txt'), 'alpha');
  const read = { ...base, index: 0, type: 'run_op', op: 'file/read', args: { path: 'a.txt' }, into: 'a' } as StepSpec;
  for (const [steps, lastLazy] of [
    [[read, validate(1, { type: 'object' })], false],
    [[validate(0, { type: 'object' }), validate(1, { type: 'object' })], false],
  ] as const) {
    const store = new RecordingStore();
    const p = plan({ postprocessor: post([...steps]), permittedOps: new Set(['file/read']), effectGrants: new Set(['fs.read']) });
    const out = await runWith(p, deps(playModel([{ finish: { title: 'x' } as never }]), { store, fileRoot: root }));
    assert.equal(out.status, 'completed', JSON.stringify(out.error));
    assert.equal(store.units.at(-1)!.lazy === true, lastLazy, JSON.stringify(store.units.at(-1)!.events.map((e) => e.type)));
  }
});

/** Counts what reaches the store: each run created (with its first unit) and each commit after it. */
class CreationStore extends MemoryStore {
  created: CommitUnit[] = [];
  commits: CommitUnit[] = [];
  readonly recorded = new Set<string>();
  override async createRun(run: Parameters<MemoryStore['createRun']>[0], first: CommitUnit) {
    this.created.push(first);
    await super.createRun(run, first);
    this.recorded.add(run.id);
  }
  override async commit(runId: string, unit: CommitUnit) {
    if (this.recorded.has(runId)) this.commits.push(unit);
    return super.commit(runId, unit);
  }
}

test('a run nobody waits on is recorded with its first commit: a model call waits for it (the run is seen and can be aborted while the model works)', async () => {
  const store = new CreationStore();
  const out = await runWith(plan({ postprocessor: post([validate(0, { type: 'object' })]) }), deps(playModel([{ finish: { title: 'x' } as never }]), { store }));
  assert.equal(out.status, 'completed');
  // the row with the pure events before the model call, in one unit; the model turn and finish artifact next
  assert.deepEqual(store.created.map(shape), [{ types: [EVENT.runStarted, EVENT.phaseStarted], lazy: false }]);
  assert.deepEqual(store.commits.map(shape), [
    { types: [EVENT.stepCompleted, EVENT.phaseCompleted, EVENT.artifactPersisted], lazy: false },
    { types: [EVENT.stepCompleted, EVENT.runCompleted], lazy: false },
  ]);
  const events = await store.readEvents(out.runId);
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
});

test('a local model (a script, a recording) is not a reason to record the run first: its turn rides in the creating commit with the finish artifact', async () => {
  const store = new CreationStore();
  const model = { ...playModel([{ finish: { title: 'x' } as never }]), local: true };
  const out = await runWith(plan({ postprocessor: post([validate(0, { type: 'object' })]) }), deps(model, { store }));
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  // one round trip fewer than a remote model's run: the row, the turn and the finish artifact together (durable before the postprocessor [seed])
  assert.deepEqual(store.created.map(shape), [{ types: [EVENT.runStarted, EVENT.phaseStarted, EVENT.stepCompleted, EVENT.phaseCompleted, EVENT.artifactPersisted], lazy: false }]);
  assert.deepEqual(store.commits.map(shape), [{ types: [EVENT.stepCompleted, EVENT.runCompleted], lazy: false }]);
});

test('pure work before the first step that needs the record rides in the creating commit: a preprocessor validate, then the model call', async () => {
  const store = new CreationStore();
  const out = await runWith(plan({ phases: { main: phase('main', { preprocessor: post([validate(0, { type: 'object' })]) }) } }), deps(playModel([{ finish: { title: 'x' } as never }]), { store }));
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  assert.equal(store.created.length, 1);
  assert.ok(store.created[0].events.some((e) => e.type === EVENT.stepCompleted), 'the pure step is recorded with the run');
  assert.ok(!store.created[0].events.some((e) => e.type === EVENT.artifactPersisted), 'the model call came after the record');
});

test('a caller waiting for the run (onCreated) has it recorded before anything runs', async () => {
  const store = new CreationStore();
  let heard: string | null = null;
  const d = deps(playModel([{ finish: { title: 'x' } as never }]), { store });
  const out = await startRun(plan(), d, { input: {}, skillText: '', onCreated: (id) => (heard = store.recorded.has(id) ? id : 'not recorded') });
  assert.equal(heard, out.runId);
  assert.deepEqual(store.created.map(shape), [{ types: [EVENT.runStarted], lazy: false }]);
});

test('nothing acts on the world before its run is recorded: user code (a stage handler) finds the run in the store', async () => {
  const store = new CreationStore();
  const seen: boolean[] = [];
  const d = deps(playModel([{ finish: { title: 'x' } as never }]), { store, handlers: { watch: () => void seen.push(store.recorded.has('run_1')) } });
  const out = await startRun({ ...plan(), stageProgram: [stage('watch', 'prompt-assembly')] }, d, { input: {}, skillText: '', runId: 'run_1' });
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  assert.deepEqual(seen, [true]);
  // recorded just before the handler ran: its row and the pure events before it, nothing after
  assert.deepEqual(store.created.map(shape), [{ types: [EVENT.runStarted, EVENT.phaseStarted], lazy: false }]);
});

test('a crash before a run is first committed leaves no run, and nothing of it ran on the world', async () => {
  const store = new CreationStore();
  const d = deps(playModel([{ finish: { title: 'x' } as never }]), { store, faults: crashAt('before-step', 1) });
  // the first step is pure (a preprocessor's validate): the run is not recorded before it
  const p = plan({ phases: { main: phase('main', { preprocessor: post([validate(0, { type: 'object' })]) }) } });
  await assert.rejects(startRun(p, d, { input: {}, skillText: '', runId: 'run_1' }), SimulatedCrash);
  assert.equal(await store.getRun('run_1'), null);
  assert.equal((await store.listResumable()).length, 0);
});
