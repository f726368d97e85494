// A step's commit sent ahead (journal.ts sendAhead): the commit an effectful step's event needs is sent
// when the next step begins, before that step's definition, memo lookup and request are worked out, and
// the next step still starts only once the commit is durable — whatever that step is. Its failures are
// thrown where the step waits, as they were at the step's own flush.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Journal } from './journal';
import { MemoryStore } from './memory-store';
import { crashAt, NO_FAULTS, SimulatedCrash } from './faults';
import { RecordRefusedError, StagecraftError, StoreWriteError } from './errors';
import type { CodeSandbox, CommitResult, CommitUnit } from './ports';
import type { Json, JsonObject } from './json';
import type { StepSpec } from './plan';
import { EVENT, type EventType } from './events';
import { deps, playModel, plan, post, recordedRun, runWith, testClock } from './testing';

const t = (name: string) => name as EventType;

/** A memory store whose every commit is answered only after `holdMs` (or as `answer` says); it logs what it was sent and when each answer came. */
class SlowStore extends MemoryStore {
  units: CommitUnit[] = [];
  /** the last seq of each unit, once its commit has answered */
  durable = 0;
  /** what happened, in order: `commit <first seq>-<last seq>` when sent, `durable <last seq>` when answered */
  log: string[] = [];
  answer: (unit: CommitUnit) => 'commit' | 'refuse' | 'fail' = () => 'commit';
  constructor(private readonly holdMs = 15) {
    super();
  }
  override async commit(runId: string, unit: CommitUnit): Promise<CommitResult> {
    this.units.push(unit);
    const last = unit.events[unit.events.length - 1].seq;
    this.log.push(`commit ${unit.events[0].seq}-${last}`);
    await new Promise((r) => setTimeout(r, this.holdMs));
    const a = this.answer(unit);
    if (a === 'refuse') throw new StagecraftError('store_value_unsupported', 'Postgres cannot store this value (test)', { httpStatus: 422 });
    if (a === 'fail') throw new Error('connection terminated (test)');
    const r = await super.commit(runId, unit);
    this.durable = Math.max(this.durable, last);
    this.log.push(`durable ${last}`);
    return r;
  }
}

/** 'pending' while `p` has not settled after the event loop has had its turns */
async function stateOf(p: Promise<unknown>, ms = 5): Promise<'pending' | 'resolved' | 'rejected'> {
  let s: 'pending' | 'resolved' | 'rejected' = 'pending';
  p.then(
    () => (s = 'resolved'),
    () => (s = 'rejected'),
  );
  await new Promise((r) => setTimeout(r, ms));
  return s;
}

async function journalOn(store: SlowStore) {
  await recordedRun(store);
  store.units = [];
  return new Journal('r', store, testClock(), NO_FAULTS, 1);
}

test('sendAhead sends a step\'s commit at once, and the next step — pure or not — starts only once it is durable', async () => {
  for (const actsOnWorld of [true, false]) {
    const store = new SlowStore(40);
    const j = await journalOn(store);
    await j.append(t('effect'), {} as never, 'step');
    j.sendAhead();
    assert.equal(store.units.length, 1, 'sent before anything waits for it');
    assert.equal(store.units[0].lazy, undefined, 'a durable unit');
    const begin = j.beforeStep(actsOnWorld);
    assert.equal(await stateOf(begin), 'pending', `a step (actsOnWorld ${actsOnWorld}) waits for the commit sent ahead`);
    await begin;
    assert.equal(store.durable, 2);
    assert.equal(store.units.length, 1, 'the step sent no second commit');
  }
});

test('sendAhead sends nothing when no step commit is due, while the run waits to be created, or with a commit in flight', async () => {
  const store = new SlowStore(1);
  const j = await journalOn(store);
  await j.append(t('pure'), {} as never, 'group');
  j.sendAhead();
  assert.equal(store.units.length, 0, 'pure events wait for a later commit');
  await j.append(t('effect'), {} as never, 'step');
  j.sendAhead();
  await j.append(t('effect'), {} as never, 'step');
  j.sendAhead();
  assert.equal(store.units.length, 1, 'one commit in flight at a time');
  await j.beforeStep();
  assert.deepEqual(store.units.map((u) => u.events.map((e) => e.seq)), [[2, 3], [4]], 'order kept: the second unit after the first settled');
  const created = new Journal('new', store, testClock(), NO_FAULTS, 1);
  created.deferCreation({ events: [{ runId: 'new', seq: 1, type: EVENT.runStarted, at: 0, data: {} }] }, (u) => store.commit('new', u));
  await created.append(t('effect'), {} as never, 'step');
  created.sendAhead();
  assert.equal(store.units.length, 2, 'a creation is sent by beforeStep');
});

test('a step commit sent ahead that fails is thrown where the next step waits', async () => {
  const store = new SlowStore(5);
  const j = await journalOn(store);
  store.answer = () => 'fail';
  await j.append(t('effect'), {} as never, 'step');
  j.sendAhead();
  await assert.rejects(j.beforeStep(false), StoreWriteError);
  const refused = new SlowStore(5);
  const k = await journalOn(refused);
  refused.answer = () => 'refuse';
  await k.append(t('effect'), {} as never, 'step');
  k.sendAhead();
  await assert.rejects(k.beforeStep(), RecordRefusedError);
  refused.answer = () => 'commit';
  const ev = await k.append(t('failed'), {} as never, 'now');
  assert.equal(ev.seq, 2, 'the refused unit gave back its seq');
});

test('the fault point before a commit sent ahead is thrown where the next step waits, and nothing was sent', async () => {
  const store = new SlowStore(1);
  await journalOn(store);
  const j = new Journal('r', store, testClock(), crashAt('after-step-before-commit', 1), 1);
  await j.append(t('effect'), {} as never, 'step');
  j.sendAhead();
  assert.equal(store.units.length, 0);
  await assert.rejects(j.beforeStep(), SimulatedCrash);
});

// ---- through the runner: a chain of effectful code steps, each commit held open for a while

const base = { onError: 'fail' as const, emptyValue: null, line: 3 };
const code = (index: number, fn: string, pure: boolean): StepSpec =>
  ({ ...base, index, type: 'node', modulePath: '/bundle/x.mjs', module: './x.mjs', function: fn, timeoutMs: 1000, pure, into: `v${index}` }) as StepSpec;

/** Each call notes, when it is made, the highest seq the store has made durable, and the step events recorded so far. */
function watchingSandbox(store: SlowStore, fns: Record<string, (v: JsonObject) => Json>) {
  const calls: { fn: string; durable: number; recorded: number[] }[] = [];
  const sandbox: CodeSandbox = {
    async call(c) {
      const sent = store.units.flatMap((u) => u.events.filter((e) => e.type === EVENT.stepCompleted).map((e) => e.seq));
      calls.push({ fn: c.exportName, durable: store.durable, recorded: sent });
      await new Promise((r) => setTimeout(r, 1));
      return fns[c.exportName](c.input as JsonObject);
    },
    async close() {},
  };
  return { sandbox, calls };
}

test('a chain of effectful steps: each step\'s request is made only after every earlier step\'s commit is durable, pure next steps too', async () => {
  const store = new SlowStore(10);
  const steps = [code(0, 'effect', false), code(1, 'effect', false), code(2, 'pure', true), code(3, 'effect', false), code(4, 'effect', false)];
  const { sandbox, calls } = watchingSandbox(store, { effect: () => 1, pure: () => 2 });
  const out = await runWith(plan({ postprocessor: post(steps) }), deps(playModel([{ finish: {} }]), { store, sandbox }));
  assert.equal(out.status, 'completed', JSON.stringify(out));
  assert.equal(calls.length, 5);
  for (const [i, c] of calls.entries()) {
    for (const seq of c.recorded) assert.ok(seq <= c.durable, `call ${i} (${c.fn}) was made with step event ${seq} sent but not durable (durable up to ${c.durable})`);
    if (i > 0) assert.ok(c.recorded.length >= (i === 3 ? 2 : i), `call ${i}: the earlier effectful steps' events were committed before it`);
  }
  const events = await store.readEvents(out.runId);
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
});

test('a chain of effectful steps whose commit fails stops before the next step\'s effect', async () => {
  const store = new SlowStore(2);
  let effects = 0;
  store.answer = (u) => (u.events.some((e) => e.type === EVENT.stepCompleted && (e.data as { position?: string }).position === '__post__/1') ? 'fail' : 'commit');
  const { sandbox } = watchingSandbox(store, { effect: () => ++effects });
  const steps = [0, 1, 2, 3].map((i) => code(i, 'effect', false));
  await assert.rejects(runWith(plan({ postprocessor: post(steps) }), deps(playModel([{ finish: {} }]), { store, sandbox })), StoreWriteError);
  assert.equal(effects, 2, 'the step after the failed commit never ran');
});

test('a code step\'s call is prepared while the commit before it travels, and started only once that commit is durable', async () => {
  const store = new SlowStore(10);
  const seen: { at: 'prepare' | 'start'; durable: number; lastSent: number }[] = [];
  const note = (at: 'prepare' | 'start') => {
    const u = store.units.at(-1);
    seen.push({ at, durable: store.durable, lastSent: u ? u.events[u.events.length - 1].seq : 0 });
  };
  const sandbox: CodeSandbox = {
    async call() {
      throw new Error('a sandbox that prepares is not called');
    },
    prepare() {
      note('prepare');
      return {
        async start() {
          note('start');
          return 1;
        },
      };
    },
    async close() {},
  };
  const steps = [0, 1, 2, 3].map((i) => code(i, 'effect', false));
  const out = await runWith(plan({ postprocessor: post(steps) }), deps(playModel([{ finish: {} }]), { store, sandbox }));
  assert.equal(out.status, 'completed', JSON.stringify(out));
  assert.deepEqual(seen.map((s) => s.at), ['prepare', 'start', 'prepare', 'start', 'prepare', 'start', 'prepare', 'start']);
  for (let k = 1; k < 4; k++) {
    const [prepared, started] = [seen[2 * k], seen[2 * k + 1]];
    assert.ok(prepared.durable < prepared.lastSent, `step ${k} was prepared while the commit of the step before it travelled`);
    assert.equal(started.lastSent, prepared.lastSent, 'no other commit between');
    assert.ok(started.durable >= started.lastSent, `step ${k} started once that commit was durable`);
  }
});
