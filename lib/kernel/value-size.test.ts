// The value cap: a step's output and a chain's value are at most MAX_VALUE_CHARS of JSON. Going
// past it is that step's failure (on_error applies); a unit the store refuses for what it carries
// fails the run, recorded — never left running, never retried; commits stay within their size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { deps, playModel, plan, post, runWith } from './testing';
import type { StepSpec } from './plan';
import type { CodeCall, CodeSandbox, CommitResult, CommitUnit } from './ports';
import type { Json, JsonObject } from './json';
import { MemoryStore } from './memory-store';
import { StagecraftError } from './errors';
import { resumeRun } from './runner';
import { jsonChars, MAX_VALUE_CHARS } from './value-size';
import { MAX_UNIT_CHARS } from './journal';
import { EVENT } from './events';

test('jsonChars is JSON.stringify(v).length for any JSON value, escapes and lone surrogates included', () => {
  const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\u0000', '\u2028', '\ud800', '\udfff', 'é', '😀'), fc.string({ unit: 'binary', maxLength: 1 })) });
  const value = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('v')), fc.dictionary(text, tie('v'))),
  })).v;
  fc.assert(fc.property(value, (v) => jsonChars(v) === JSON.stringify(v).length), { numRuns: 500 });
});

test('jsonChars stops counting past its limit: a 200 MB value is refused for the price of the cap', () => {
  const huge = { a: 'x'.repeat(100 * 1024 * 1024), b: 'y'.repeat(100 * 1024 * 1024) };
  const started = process.hrtime.bigint();
  assert.ok(jsonChars(huge, MAX_VALUE_CHARS) > MAX_VALUE_CHARS);
  // a measure, not a timing assertion: the count did not build the 200 MB text
  assert.ok(process.memoryUsage().rss < 2 * 1024 ** 3);
  void started;
});

const MB = 1024 * 1024;
const base = { onError: 'fail' as const, emptyValue: null, line: 3 };
const code = (index: number, fn: string, over: Partial<StepSpec> = {}): StepSpec =>
  ({ ...base, index, type: 'node', modulePath: '/bundle/big.mjs', module: './big.mjs', function: fn, timeoutMs: 1000, pure: false, ...over }) as StepSpec;

/** A sandbox running the given functions in process, fused requests (`chain`) as the worker runs them. */
function fakeSandbox(fns: Record<string, (v: JsonObject) => Json>): CodeSandbox & { calls: CodeCall[] } {
  const calls: CodeCall[] = [];
  return {
    calls,
    async call(c) {
      calls.push(c);
      if (!c.chain) return fns[c.exportName](c.input as JsonObject);
      const outputs: Json[] = [];
      let value = c.input as JsonObject;
      for (const s of c.chain) {
        const out = fns[s.exportName](value);
        outputs.push(out);
        value = s.into ? { ...value, [s.into]: out } : { ...value, ...(out as JsonObject) };
      }
      return { outputs };
    },
    async close() {},
  };
}

const withSteps = (steps: StepSpec[]) => plan({ postprocessor: post(steps) });
const processorEvents = async (store: MemoryStore, runId: string) =>
  (await store.readEvents(runId)).filter((e) => e.type === EVENT.stepCompleted && e.data.kind === 'processor');

test('an output over the cap is that step’s failure: on_error skip goes on with the value unchanged', async () => {
  const sandbox = fakeSandbox({ big: () => ({ blob: 'x'.repeat(MAX_VALUE_CHARS) }), small: () => ({ ok: true }) });
  const d = deps(playModel([{ finish: { t: 1 } }]), { sandbox });
  const out = await runWith(withSteps([code(0, 'big', { onError: 'skip' }), code(1, 'small')]), d);
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  assert.deepEqual(out.output, { t: 1, ok: true });
  const [skipped] = await processorEvents(d.store, out.runId);
  assert.equal(skipped.data.status, 'skipped');
  assert.match(JSON.stringify(skipped.data.output), /value_too_large.*it returned more than 16\.0 MB of JSON/);
});

test('with on_error fail the run ends aborted and recorded, with a message naming the cap and what to do', async () => {
  const sandbox = fakeSandbox({ big: () => 'x'.repeat(MAX_VALUE_CHARS + 1) });
  const d = deps(playModel([{ finish: {} }]), { sandbox });
  const out = await runWith(withSteps([code(0, 'big', { into: 'b' })]), d);
  assert.equal(out.status, 'aborted');
  assert.match(String(out.error!.message), /postprocessor step 0 \(node, skill\.md line 3\) failed: it returned more than 16\.0 MB of JSON .*Write large data to the workspace/);
  assert.equal((await d.store.getRun(out.runId))!.status, 'aborted');
  assert.deepEqual(await d.store.listResumable(), []);
});

test("a model's answer over the cap fails the run saying what to ask of the model, not of a code step", async () => {
  const d = deps(playModel([{ finish: { t: 'x'.repeat(MAX_VALUE_CHARS) } }]));
  const out = await runWith(withSteps([]), d);
  assert.equal(out.status, 'failed');
  const message = String(out.error!.message);
  assert.match(message, /the model step at .*: its output holds more than 16\.0 MB of JSON .*Ask the model for a shorter answer/);
  assert.doesNotMatch(message, /a file from the code step/);
});

test('iterate gathering 40 values of 15 MB stops at the element that passes the cap (no 600 MB value is built)', async () => {
  const sandbox = fakeSandbox({ blob: (v) => ({ b: 'x'.repeat(15 * MB) + String(v.value) }) });
  const d = deps(playModel([{ finish: { items: Array.from({ length: 40 }, (_, i) => i) } }]), { sandbox });
  const iterate = { ...base, index: 0, type: 'iterate', over: 'items', into: 'blobs', steps: [code(0, 'blob', { pure: true })] } as StepSpec;
  const out = await runWith(withSteps([iterate]), d);
  assert.equal(out.status, 'aborted');
  assert.match(String(out.error!.message), /iterate: the results of its first 2 of 40 elements hold more than 16\.0 MB/);
  assert.equal(sandbox.calls.length, 2, 'the third element never ran');
});

test('a value that grows past the cap fails the step that would grow it (on_error empty writes the empty value)', async () => {
  const sandbox = fakeSandbox({ six: () => 'x'.repeat(6 * MB) });
  const d = deps(playModel([{ finish: {} }]), { sandbox });
  const steps = [code(0, 'six', { into: 'a' }), code(1, 'six', { into: 'b' }), code(2, 'six', { into: 'c', onError: 'empty', emptyValue: '' })];
  const out = await runWith(withSteps(steps), d);
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  const o = out.output as Record<string, string>;
  assert.equal(o.a.length + o.b.length, 12 * MB);
  assert.equal(o.c, '');
  const events = await processorEvents(d.store, out.runId);
  assert.match(JSON.stringify(events[2].data.output), /with its result merged in, the value would hold more than 16\.0 MB/);
});

test('fused pure steps: a result that would pass the cap is left to the single-step path, with the same error', async () => {
  const sandbox = fakeSandbox({ ten: () => 'x'.repeat(10 * MB) });
  const d = deps(playModel([{ finish: {} }]), { sandbox });
  const steps = [code(0, 'ten', { into: 'a', pure: true }), code(1, 'ten', { into: 'b', pure: true, onError: 'skip' })];
  const out = await runWith(withSteps(steps), d);
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  assert.deepEqual(Object.keys(out.output as object), ['a']);
  assert.ok(sandbox.calls[0].chain, 'the two steps went to the worker fused');
  const events = await processorEvents(d.store, out.runId);
  assert.deepEqual(events.map((e) => e.data.status), ['ok', 'skipped']);
});

/** A memory store that records the size of each unit it commits. */
class MeasuringStore extends MemoryStore {
  units: number[] = [];
  async commit(runId: string, unit: CommitUnit): Promise<CommitResult> {
    this.units.push(JSON.stringify(unit).length);
    return super.commit(runId, unit);
  }
}

test('pure steps returning 10 MB each are committed in units that stay within the unit budget', async () => {
  const sandbox = fakeSandbox({ ten: (v) => 'x'.repeat(10 * MB) + String(Object.keys(v).length) });
  const store = new MeasuringStore();
  const d = deps(playModel([{ finish: {} }]), { sandbox, store });
  // into the same key: the value stays under the cap, the log gets 8 outputs of 10 MB
  const steps = Array.from({ length: 8 }, (_, i) => code(i, 'ten', { into: 'x', pure: true }));
  const out = await runWith(withSteps(steps), d);
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  assert.ok(Math.max(...store.units) <= MAX_UNIT_CHARS + 2 * 10 * MB + 4096, `units of ${store.units.join(', ')} characters`);
  assert.equal((await processorEvents(store, out.runId)).length, 8);
});

/** A store that refuses, as Postgres refuses a value it cannot keep, any unit carrying `poison`. */
class RefusingStore extends MemoryStore {
  async commit(runId: string, unit: CommitUnit): Promise<CommitResult> {
    if (unit.events.some((e) => (e.data.output as { p?: string } | null)?.p === 'POISON')) {
      throw new StagecraftError('store_value_unsupported', 'Postgres cannot store this value: invalid input (POISON)', { httpStatus: 422 });
    }
    return super.commit(runId, unit);
  }
}

test('a unit the store refuses for what it carries fails the run, recorded: not running, not resumable, the log gap-free', async () => {
  const sandbox = fakeSandbox({ poison: () => ({ p: 'POISON' }), fine: () => ({ f: 1 }) });
  const store = new RefusingStore();
  const d = deps(playModel([{ finish: {} }]), { sandbox, store });
  const out = await runWith(withSteps([code(0, 'fine', { pure: true }), code(1, 'poison', { pure: true, onError: 'skip' })]), d);
  assert.equal(out.status, 'failed');
  assert.equal(out.error!.code, 'record_refused');
  assert.match(String(out.error!.message), /produced something the store cannot record: Postgres cannot store this value.*fails here/);
  const run = (await store.getRun(out.runId))!;
  assert.equal(run.status, 'failed');
  const events = await store.readEvents(out.runId);
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1), 'seqs 1..n, no gap where the refused unit was');
  assert.equal(events.at(-1)!.type, EVENT.runFailed);
  assert.ok(!events.some((e) => (e.data.output as { p?: string } | null)?.p === 'POISON'), 'the refused output is not in the log');
  assert.deepEqual(await store.listResumable(), []);
  await assert.rejects(resumeRun(out.runId, () => withSteps([]), d), /cannot be resumed: it is failed/);
});
