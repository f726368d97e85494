// What a code step printed is kept on its record (`stdout`, `stderr` after its other members) when
// its call returned; a step that printed nothing records what it always did, byte for byte. A fused
// run of pure steps that printed is sent once more: printing nothing then, what it printed was the
// module's import's, recorded on the first step; printing again, its steps run again alone, so that
// each record holds its own output. A replay's steps print what they print: it is never a divergence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { knownText } from './data-text';
import { MemoryStore } from './memory-store';
import { EVENT } from './events';
import type { CodeSandbox, PrintedOutput, RunEvent } from './ports';
import type { StepSpec } from './plan';
import type { JsonObject } from './json';
import { deps, playModel, plan, post, printingSandbox as preparingSandbox, replayOf } from './testing';
import { startRun } from './runner';
import { compareLogs } from './compare';

const base = { onError: 'fail' as const, emptyValue: null, line: 3 };
const code = (index: number, fn: string, over: Partial<StepSpec> = {}): StepSpec =>
  ({ ...base, index, type: 'node', modulePath: '/bundle/x.mjs', module: './x.mjs', function: fn, timeoutMs: 1000, pure: false, ...over }) as StepSpec;

/**
 * A sandbox that prepares its calls, as the real one does: `fn` answers a call and says what it
 * printed. A fused chain is answered as a worker answers it, its output the whole request's.
 */
function printingSandbox(fn: (c: { exportName: string; input: JsonObject }) => { value: unknown; printed?: PrintedOutput }) {
  return preparingSandbox((c) => {
    if (!c.chain) return fn({ exportName: c.exportName, input: c.input as JsonObject });
    const outputs: unknown[] = [];
    let v = c.input as JsonObject;
    let out = '';
    for (const s of c.chain) {
      const r = fn({ exportName: s.exportName, input: v });
      out += r.printed?.stdout ?? '';
      outputs.push(r.value);
      v = { ...v, ...(r.value as JsonObject) };
    }
    return { value: { outputs }, printed: out ? { stdout: out, stderr: '' } : undefined };
  });
}

const processorSteps = (events: RunEvent[]) => events.filter((e) => e.type === EVENT.stepCompleted && e.data.kind === 'processor');

async function runSteps(steps: StepSpec[], sandbox: CodeSandbox, store = new MemoryStore()) {
  const out = await startRun(plan({ postprocessor: post(steps) }), deps(playModel([{ finish: {} }]), { store, sandbox }), { input: {}, skillText: '' });
  return { out, store, events: await store.readEvents(out.runId) };
}

const HEAD = ['index', 'type', 'onError', 'line', 'kind', 'phase', 'position', 'key', 'defHash', 'definition', 'status', 'output', 'durationMs'];

test("a code step's stdout and stderr end its record; a step that printed nothing has neither member", async () => {
  const { sandbox } = printingSandbox(({ exportName }) =>
    exportName === 'loud' ? { value: { a: 1 }, printed: { stdout: 'rows: 3\n', stderr: 'careful\n' } } : exportName === 'errOnly' ? { value: { b: 2 }, printed: { stdout: '', stderr: 'warn' } } : { value: { c: 3 } },
  );
  const sent = new MemoryStore();
  const { out, events } = await runSteps([code(0, 'loud'), code(1, 'errOnly'), code(2, 'quiet')], sandbox, sent);
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  const [loud, errOnly, quiet] = processorSteps(events).map((e) => e.data);
  assert.deepEqual(Object.keys(loud), [...HEAD, 'stdout', 'stderr']);
  assert.equal(loud.stdout, 'rows: 3\n');
  assert.equal(loud.stderr, 'careful\n');
  assert.deepEqual(Object.keys(errOnly), [...HEAD, 'stderr']);
  assert.deepEqual(Object.keys(quiet), HEAD);
});

test('the text of a record with printed output is built while the call runs, and is exactly its JSON', async () => {
  const texts: (string | undefined)[] = [];
  class SentStore extends MemoryStore {
    override commit(runId: string, unit: Parameters<MemoryStore['commit']>[1]) {
      for (const e of unit.events) if (e.type === EVENT.stepCompleted && e.data.kind === 'processor') texts.push(knownText(e.data) === JSON.stringify(e.data) ? 'same' : knownText(e.data));
      return super.commit(runId, unit);
    }
  }
  const { sandbox } = printingSandbox(({ exportName }) => (exportName === 'loud' ? { value: { q: 'a "b"' }, printed: { stdout: 'tab\there "quoted" \u001b[2J\n', stderr: '' } } : { value: { c: 3 } }));
  const { out } = await runSteps([code(0, 'loud'), code(1, 'quiet')], sandbox, new SentStore());
  assert.equal(out.status, 'completed');
  assert.deepEqual(texts, ['same', 'same']);
});

test('a result refused after the call returned (not mergeable, on_error: skip): what the step printed is on its record', async () => {
  const { sandbox } = printingSandbox(() => ({ value: [1, 2], printed: { stdout: 'made a list\n', stderr: '' } }));
  const { out, events } = await runSteps([code(0, 'listy', { onError: 'skip' })], sandbox);
  assert.equal(out.status, 'completed');
  const [d] = processorSteps(events).map((e) => e.data);
  assert.equal(d.status, 'skipped');
  assert.equal(d.stdout, 'made a list\n');
});

test('a fused run of pure steps that printed runs them again alone: each record holds what that step printed', async () => {
  const { sandbox, calls } = printingSandbox(({ exportName, input }) => ({ value: { [exportName]: true }, printed: { stdout: `${exportName} saw ${Object.keys(input).length}\n`, stderr: '' } }));
  const { out, events } = await runSteps([code(0, 'one', { pure: true }), code(1, 'two', { pure: true }), code(2, 'three', { pure: true })], sandbox);
  assert.equal(out.status, 'completed');
  assert.deepEqual(processorSteps(events).map((e) => e.data.stdout), ['one saw 0\n', 'two saw 1\n', 'three saw 2\n']);
  // sent once more first: it printed again, so the steps print themselves
  assert.deepEqual(calls.map((c) => (c.chain ? 'fused' : c.exportName)), ['fused', 'fused', 'one', 'two', 'three']);
});

test("a module that prints as it is imported: what its first fused request printed is the first step's, the steps are not run again alone", async () => {
  let imported = false;
  const { sandbox, calls } = printingSandbox(({ exportName }) => {
    const printed = imported ? undefined : { stdout: 'DeprecationWarning: imported\n', stderr: '' };
    imported = true;
    return { value: { [exportName]: true }, printed };
  });
  const { out, events } = await runSteps([code(0, 'one', { pure: true }), code(1, 'two', { pure: true }), code(2, 'three', { pure: true })], sandbox);
  assert.equal(out.status, 'completed');
  assert.deepEqual(processorSteps(events).map((e) => e.data.stdout), ['DeprecationWarning: imported\n', undefined, undefined]);
  assert.deepEqual(processorSteps(events).map((e) => e.data.output), [{ one: true }, { two: true }, { three: true }]);
  assert.deepEqual(calls.map((c) => (c.chain ? 'fused' : c.exportName)), ['fused', 'fused']);
});

test('a module whose steps print: only its first fused request is sent twice in a run, its later runs go alone at once', async () => {
  const { sandbox, calls } = printingSandbox(({ exportName }) => ({ value: { [exportName]: true }, printed: { stdout: `${exportName}\n`, stderr: '' } }));
  const other = { pure: true, modulePath: '/bundle/y.mjs' };
  const steps = [code(0, 'a', { pure: true }), code(1, 'b', { pure: true }), code(2, 'c', other), code(3, 'd', { pure: true }), code(4, 'e', { pure: true })];
  const { out, events } = await runSteps(steps, sandbox);
  assert.equal(out.status, 'completed');
  assert.deepEqual(processorSteps(events).map((e) => e.data.stdout), ['a\n', 'b\n', 'c\n', 'd\n', 'e\n']);
  assert.deepEqual(calls.map((c) => (c.chain ? 'fused' : c.exportName)), ['fused', 'fused', 'a', 'b', 'c', 'fused', 'd', 'e']);
});

test('a fused run of pure steps that printed nothing is one request, its records without printed output', async () => {
  const { sandbox, calls } = printingSandbox(({ exportName }) => ({ value: { [exportName]: true } }));
  const { out, events } = await runSteps([code(0, 'one', { pure: true }), code(1, 'two', { pure: true })], sandbox);
  assert.equal(out.status, 'completed');
  assert.equal(calls.length, 1);
  for (const e of processorSteps(events)) assert.deepEqual(Object.keys(e.data), HEAD);
});

test("a replay whose steps print other text (a time, a count) is identical: printed output is not a step's result", async () => {
  let n = 0;
  const { sandbox } = printingSandbox(({ exportName }) => ({ value: { [exportName]: true }, printed: { stdout: `call ${++n} at ${1000 + 7 * n} ms\n`, stderr: n % 2 ? 'odd\n' : '' } }));
  const steps = [code(0, 'one'), code(1, 'two')];
  const rec = await runSteps(steps, sandbox);
  assert.equal(rec.out.status, 'completed');
  const { out: replay, events } = await replayOf(plan({ postprocessor: post(steps) }), rec.store, { runId: rec.out.runId, events: rec.events }, sandbox);
  assert.equal(replay.status, 'completed', JSON.stringify(replay.error));
  // the replay ran its steps: its records hold what they printed this time, not the recording's
  assert.deepEqual(processorSteps(events).map((e) => String(e.data.stdout).split(' at ')[0]), ['call 3', 'call 4']);
  assert.deepEqual(processorSteps(events).map((e) => e.data.stderr), ['odd\n', undefined]);
  const cmp = compareLogs(rec.events, events);
  assert.deepEqual(cmp.divergences, []);
  assert.ok(cmp.rows.every((row) => row.change === 'same'));
});
