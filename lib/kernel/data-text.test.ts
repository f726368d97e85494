// A code step's record built while its call is in flight (data-text.ts): its JSON text is exactly the
// data's, its members in the same order as a record built after the call, and the store writes that
// text rather than encoding the data again (wire.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { knownText, stepHead, withTail } from './data-text';
import { MemoryStore } from './memory-store';
import { EVENT } from './events';
import type { CodeSandbox, CommitResult, CommitUnit, RunEvent } from './ports';
import type { StepSpec } from './plan';
import { deps, playModel, plan, post, runWith } from './testing';
import { directCommit, opCommit } from '../store/wire';

/** a memory store that keeps the events it was sent, as sent */
class SentStore extends MemoryStore {
  sent: RunEvent[] = [];
  override commit(runId: string, unit: CommitUnit): Promise<CommitResult> {
    this.sent.push(...unit.events);
    return super.commit(runId, unit);
  }
}

const base = { onError: 'fail' as const, emptyValue: null, line: 3 };
const code = (index: number, pure: boolean, into?: string): StepSpec =>
  ({ ...base, index, type: 'node', modulePath: '/bundle/x.mjs', module: './x.mjs', function: 'f', timeoutMs: 1000, pure, into }) as StepSpec;

test("a code step's record is the same, its text built while its call was in flight", async () => {
  const store = new SentStore();
  let n = 0;
  const sandbox: CodeSandbox = {
    async call() {
      throw new Error('a sandbox that prepares is not called');
    },
    prepare(c) {
      return {
        async start() {
          await new Promise((r) => setTimeout(r, 1));
          return { n: ++n, quote: 'a "b"\n', input: c.input, nested: [{ x: null }] };
        },
      };
    },
    async close() {},
  };
  const steps = [code(0, false), code(1, true, 'kept'), code(2, false)];
  const out = await runWith(plan({ postprocessor: post(steps) }), deps(playModel([{ finish: {} }]), { store, sandbox }));
  assert.equal(out.status, 'completed', JSON.stringify(out));
  const recorded = (await store.readEvents(out.runId)).filter((e) => e.type === EVENT.stepCompleted && (e.data as { kind?: string }).kind === 'processor');
  assert.equal(recorded.length, 3);
  for (const e of recorded) {
    const d = e.data as Record<string, unknown>;
    assert.deepEqual(Object.keys(d), ['index', 'type', 'onError', 'line', 'kind', 'phase', 'position', 'key', 'defHash', 'definition', 'status', 'output', 'durationMs']);
  }
  // the events the journal sent (the store keeps copies): each with its text, exactly JSON.stringify's
  const mine = store.sent.filter((e) => e.type === EVENT.stepCompleted && (e.data as { kind?: string }).kind === 'processor');
  assert.equal(mine.length, 3);
  for (const e of mine) assert.equal(knownText(e.data), JSON.stringify(e.data));
});

test('the store writes the text built with the data, in its direct write and in its op', () => {
  // a head whose text is spaced as JSON.stringify never spaces it: what is written is that text
  const data = withTail({ fields: { a: 1 }, text: '{ "a": 1' }, 'ok', { o: [1] }, 2)!;
  const text = '{ "a": 1,"status":"ok","output":{"o":[1]},"durationMs":2}';
  assert.deepEqual(JSON.parse(text), data);
  const unit = { events: [{ runId: 'r', seq: 2, type: EVENT.stepCompleted, at: 1, data }] };
  assert.equal(directCommit('r', unit)!.events[0][4], text);
  assert.ok(opCommit('r', unit).includes(JSON.stringify(text)));
});

test('no head for a label that holds a member of the record\'s tail; no text for an output JSON cannot encode', () => {
  assert.equal(stepHead({ status: 'x', kind: 'processor' }), null);
  assert.equal(stepHead({}), null);
  const head = stepHead({ kind: 'processor', position: '__post__/0' })!;
  assert.equal(withTail(head, 'ok', undefined, 1), null);
  const d = withTail(head, 'ok', null, Number.NaN)!;
  assert.equal(knownText(d), JSON.stringify(d));
});

test("a code step's result is encoded once: its JSON text measures it and is its record's", async () => {
  let reads = 0;
  const atCommit: number[] = [];
  class Counting extends MemoryStore {
    override commit(runId: string, unit: CommitUnit): Promise<CommitResult> {
      if (unit.events.some((e) => e.type === EVENT.stepCompleted && (e.data as { kind?: string }).kind === 'processor')) atCommit.push(reads);
      return super.commit(runId, unit);
    }
  }
  const sandbox: CodeSandbox = {
    async call() {
      throw new Error('a sandbox that prepares is not called');
    },
    prepare() {
      return {
        async start() {
          // a member whose every read is counted: each encoding or measure of the result reads it once
          return Object.defineProperty({}, 'big', { enumerable: true, get: () => (reads++, 'x'.repeat(100)) });
        },
      };
    },
    async close() {},
  };
  const out = await runWith(plan({ postprocessor: post([code(0, false)]) }), deps(playModel([{ finish: {} }]), { store: new Counting(), sandbox }));
  assert.equal(out.status, 'completed', JSON.stringify(out));
  // its text (measure and record), and its merge into the value
  assert.deepEqual(atCommit, [2]);
});
