// Pipelined lazy commits (journal.ts): a full group of pure events is sent without waiting for
// its answer, and the kernel computes on; the answer is waited for before the run's next commit,
// before any step that may act on the world, and at the run's end — and a failure of it surfaces
// there as it would have at its own flush.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Journal, GROUP_COMMIT_MAX_EVENTS } from './journal';
import { MemoryStore } from './memory-store';
import { NO_FAULTS } from './faults';
import { RecordRefusedError, RunClaimedError, StagecraftError, StoreWriteError } from './errors';
import type { CodeSandbox, CommitResult, CommitUnit } from './ports';
import type { Json, JsonObject } from './json';
import type { StepSpec } from './plan';
import { EVENT, type EventType } from './events';
import { deps, playModel, plan, post, recordedRun, runWith, testClock } from './testing';

const t = (name: string) => name as EventType;
const G = GROUP_COMMIT_MAX_EVENTS;

/** A memory store whose commits of lazy units wait for `release` (or answer as `answer` says). */
class HeldStore extends MemoryStore {
  units: CommitUnit[] = [];
  /** commits sent and not answered yet; never more than one if the journal keeps order */
  open = 0;
  maxOpen = 0;
  private gates: (() => void)[] = [];
  hold = true;
  /** what a lazy unit is answered with, once released */
  answer: (unit: CommitUnit) => 'commit' | 'conflict' | 'refuse' | 'fail' = () => 'commit';
  override async commit(runId: string, unit: CommitUnit): Promise<CommitResult> {
    this.units.push(unit);
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    try {
      if (unit.lazy && this.hold) await new Promise<void>((r) => this.gates.push(r));
      else await new Promise((r) => setTimeout(r, 1));
      const a = unit.lazy ? this.answer(unit) : 'commit';
      if (a === 'refuse') throw new StagecraftError('store_value_unsupported', 'Postgres cannot store this value (test)', { httpStatus: 422 });
      if (a === 'fail') throw new Error('connection terminated (test)');
      if (a === 'conflict') {
        await super.commit(runId, { events: unit.events.map((e) => ({ ...e, type: t('theirs') })) }); // another process wrote these seqs first
        return { kind: 'conflict', recorded: await this.readEvents(runId, unit.events[0].seq - 1, 1) };
      }
      return await super.commit(runId, unit);
    } finally {
      this.open--;
    }
  }
  release(): void {
    for (const g of this.gates.splice(0)) g();
  }
  get waiting(): number {
    return this.gates.length;
  }
}

async function journalOn(store: HeldStore) {
  await recordedRun(store);
  store.units = [];
  return new Journal('r', store, testClock(), NO_FAULTS, 1);
}

/** 'pending' while `p` has not settled after the event loop has had its turns */
async function stateOf(p: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let s: 'pending' | 'resolved' | 'rejected' = 'pending';
  p.then(
    () => (s = 'resolved'),
    () => (s = 'rejected'),
  );
  await new Promise((r) => setTimeout(r, 20));
  return s;
}

const group = async (j: Journal, n: number) => {
  for (let i = 0; i < n; i++) await j.append(t('pure'), { i } as never, 'group');
};

test('a full group of pure events is sent and not waited for: pure work goes on while its commit is held open', async () => {
  const store = new HeldStore();
  const j = await journalOn(store);
  const filled = group(j, G);
  assert.equal(await stateOf(filled), 'resolved', 'the append that fills the group returns while its commit is open');
  assert.equal(store.waiting, 1);
  await j.beforeStep(false); // a pure step starts beside it
  await group(j, 10);
  const effect = j.beforeStep(true);
  assert.equal(await stateOf(effect), 'pending', 'a step that may act on the world waits for the lazy commit');
  const flushed = j.flush();
  assert.equal(await stateOf(flushed), 'pending', 'an explicit flush waits for it too');
  assert.equal(store.units.length, 1, 'the next unit is not sent before the one in flight settled');
  store.hold = false;
  store.release();
  await effect;
  await flushed;
  assert.equal(store.maxOpen, 1);
  assert.deepEqual(store.units.map((u) => [u.events[0].seq, u.events.length, u.lazy === true]), [
    [2, G, true],
    [G + 2, 10, true],
  ]);
  const events = await store.readEvents('r');
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
});

test('commits stay in order: a run of many groups never has two commits open', async () => {
  const store = new HeldStore();
  store.hold = false;
  const j = await journalOn(store);
  await group(j, 5 * G + 3);
  await j.append(t('end'), {} as never, 'now');
  assert.equal(store.maxOpen, 1);
  assert.deepEqual(store.units.map((u) => u.lazy === true), [true, true, true, true, true, false]);
  const events = await store.readEvents('r');
  assert.equal(events.length, 5 * G + 5);
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
});

test('a conflict on a pipelined commit is thrown before the next step that may act on the world', async () => {
  const store = new HeldStore();
  store.answer = () => 'conflict';
  const j = await journalOn(store);
  await group(j, G);
  await group(j, 3); // pure work goes on
  const effect = j.beforeStep(true);
  store.release();
  await assert.rejects(effect, RunClaimedError);
  await assert.rejects(j.flush(), RunClaimedError, 'nothing more is recorded after it');
  assert.equal(store.units.length, 1);
});

test('a store failure of a pipelined commit surfaces at the next await point as StoreWriteError', async () => {
  const store = new HeldStore();
  store.answer = () => 'fail';
  const j = await journalOn(store);
  await group(j, G);
  store.release();
  await assert.rejects(j.beforeStep(true), (e: unknown) => e instanceof StoreWriteError && /connection terminated/.test(e.message));
  await assert.rejects(j.append(t('end'), {} as never, 'now'), StoreWriteError);
  assert.equal(store.units.length, 1);
});

test('a refused pipelined commit gives back its seqs and drops what was appended after it: the failure is recorded at its first seq', async () => {
  const store = new HeldStore();
  store.answer = (u) => (u.events[0].seq === 2 ? 'refuse' : 'commit');
  const j = await journalOn(store);
  await group(j, G);
  await group(j, 7); // appended after the refused unit, with later seqs
  store.hold = false;
  store.release();
  await assert.rejects(j.append(t('failed'), {} as never, 'now'), RecordRefusedError);
  assert.equal(j.lastSeq, 1, 'the refused unit and everything after it are given back');
  const failed = await j.append(t('failed'), {} as never, 'now');
  assert.equal(failed.seq, 2);
  const events = await store.readEvents('r');
  assert.deepEqual(events.map((e) => [e.seq, e.type]), [
    [1, EVENT.runStarted],
    [2, 'failed'],
  ]);
});

// ---- through the runner: pure code steps past one group, then a step that acts on the world

const base = { onError: 'fail' as const, emptyValue: null, line: 3 };
const code = (index: number, fn: string, pure: boolean): StepSpec =>
  ({ ...base, index, type: 'node', modulePath: '/bundle/x.mjs', module: './x.mjs', function: fn, timeoutMs: 1000, pure, into: `v${index}` }) as StepSpec;

function sandboxOf(fns: Record<string, (v: JsonObject) => Json>): CodeSandbox {
  return {
    async call(c) {
      if (!c.chain) return fns[c.exportName](c.input as JsonObject);
      const outputs: Json[] = c.chain.map((s) => fns[s.exportName](c.input as JsonObject));
      return { outputs };
    },
    async close() {},
  };
}

const pureThenEffect = (poisonAt = -1) => {
  const steps = Array.from({ length: G + 20 }, (_, i) => code(i, i === poisonAt ? 'poison' : 'pure', true));
  return plan({ postprocessor: post([...steps, code(G + 20, 'effect', false)]) });
};

test('a run superseded on a pipelined commit stops before its next effectful step runs', async () => {
  const store = new HeldStore();
  store.hold = false;
  store.answer = () => 'conflict';
  let effects = 0;
  const sandbox = sandboxOf({ pure: () => 1, effect: () => ++effects });
  const out = await runWith(pureThenEffect(), deps(playModel([{ finish: {} }]), { store, sandbox }));
  assert.equal(out.status, 'superseded');
  assert.equal(effects, 0, 'the effectful step did not run');
  assert.ok(store.units.some((u) => u.lazy), 'the conflict came on a lazy unit');
});

test('a value refused in a pipelined commit fails the run, recorded gap-free, as at its own flush', async () => {
  const store = new HeldStore();
  store.hold = false;
  store.answer = (u) => (u.events.some((e) => (e.data.output as { p?: string } | null)?.p === 'POISON') ? 'refuse' : 'commit');
  let effects = 0;
  const sandbox = sandboxOf({ pure: () => 1, poison: () => ({ p: 'POISON' }), effect: () => ++effects });
  const out = await runWith(pureThenEffect(5), deps(playModel([{ finish: {} }]), { store, sandbox }));
  assert.equal(out.status, 'failed', JSON.stringify(out));
  assert.equal(out.error!.code, 'record_refused');
  assert.equal(effects, 0);
  const events = await store.readEvents(out.runId);
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
  assert.equal(events.at(-1)!.type, EVENT.runFailed);
  assert.ok(!events.some((e) => (e.data.output as { p?: string } | null)?.p === 'POISON'));
  assert.equal((await store.getRun(out.runId))!.status, 'failed');
});

test('a store failure of a pipelined commit stops the run with StoreWriteError before the effectful step', async () => {
  const store = new HeldStore();
  store.hold = false;
  store.answer = () => 'fail';
  let effects = 0;
  const sandbox = sandboxOf({ pure: () => 1, effect: () => ++effects });
  await assert.rejects(runWith(pureThenEffect(), deps(playModel([{ finish: {} }]), { store, sandbox })), StoreWriteError);
  assert.equal(effects, 0);
});
