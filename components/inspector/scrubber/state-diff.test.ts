import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunStateView } from '@/lib/views/inspector';
import { atPointer, fullValue, FULL_VALUE_MAX_CHARS, shortValue, stateChanges } from './state-diff';

const zero = { ok: 0, failed: 0, refused: 0, skipped: 0, empty: 0, error: 0 };
const base: RunStateView = {
  runId: 'run_1',
  seq: 4,
  lastSeq: 9,
  at: 1000,
  type: 'phase_started',
  status: 'running',
  phase: 'work',
  visit: 'work',
  round: null,
  resume: null,
  transcript: [{ id: 'work/m0', seq: 4, editedSeq: null, editedBy: null, role: 'system', content: { size: 5, value: 'hello' }, toolCallId: null, op: null, toolCalls: null }],
  chain: null,
  workspace: [],
  files: [],
  counts: { events: 4, model: 0, tool: { ...zero, denied: 0 }, stage: zero, processor: zero },
  output: null,
  error: null,
  item: 'work',
  change: { summary: 'phase work started', paths: ['/phase'] },
};

test('an added message is one add at its place, with the message as its value', () => {
  const next: RunStateView = {
    ...base,
    seq: 5,
    at: 1001,
    type: 'model_called',
    item: 'work/r1/model',
    transcript: [...base.transcript, { ...base.transcript[0], id: 'work/m1', role: 'assistant', content: { size: 2, value: 'ok' } }],
    counts: { ...base.counts, events: 5, model: 1 },
  };
  const changes = stateChanges(base, next);
  assert.deepEqual(
    changes.map((c) => [c.op, c.path]),
    [
      ['add', '/transcript/1'],
      ['replace', '/counts/model'],
    ],
  );
  assert.equal((changes[0].after as { role: string }).role, 'assistant');
  assert.deepEqual([changes[1].before, changes[1].after], [0, 1]);
});

test('what changes with every event (seq, time, type, item, words, the event count) is not a change', () => {
  const next: RunStateView = { ...base, seq: 5, at: 2000, type: 'x', item: 'y', change: { summary: 'z', paths: [] }, counts: { ...base.counts, events: 5 } };
  assert.deepEqual(stateChanges(base, next), []);
});

test('a replaced phase says what it was and what it is', () => {
  const next: RunStateView = { ...base, phase: 'check', visit: 'check', transcript: [] };
  const changes = stateChanges(base, next);
  const phase = changes.find((c) => c.path === '/phase');
  assert.deepEqual(phase, { op: 'replace', path: '/phase', before: 'work', after: 'check' });
  assert.ok(changes.some((c) => c.op === 'remove' && c.path === '/transcript/0'));
});

test('pointers read escaped keys; short values are cut', () => {
  assert.equal(atPointer({ 'a/b': { '~c': 1 } }, '/a~1b/~0c'), 1);
  assert.equal(atPointer({ a: 1 }, '/a/b'), undefined);
  assert.equal(shortValue('x'.repeat(300), 10).length, 10);
  assert.equal(shortValue({ a: 1 }), '{"a":1}');
  // a message says its role and text; a large value its preview and size
  assert.equal(shortValue({ id: 'm', role: 'tool', op: 'file/read', content: { size: 2, value: 'hi' } }), 'tool file/read: "hi"');
  assert.equal(shortValue({ size: 9000, preview: 'abc', ref: { seq: 1, path: '/x' } }), '"abc"… (9000 characters)');
  assert.equal(shortValue({ path: 'a.txt', seq: 3, content: { size: 1, value: 'x' } }), 'a.txt: "x"');
});

test("a change line cut short says the value whole in its title; one shown whole has none", () => {
  const error = { code: 'workflow_aborted', message: `postprocessor step 0 (python, skill.md line 27) failed: ${'KeyError '.repeat(20)}` };
  assert.ok(shortValue(error).endsWith('…'));
  assert.equal(fullValue(error), JSON.stringify(error));
  assert.equal(fullValue({ a: 1 }), undefined);
  assert.equal(fullValue(undefined), undefined);
  // a very wide value is bounded
  assert.equal(fullValue('x'.repeat(10_000))?.length, FULL_VALUE_MAX_CHARS);
});

test("a chain's value said to be a fork's edit (editedAt) is not a change of its own: the value's change is", () => {
  const chain = { prefix: '__post__', phase: '__post__', value: { size: 7, value: { n: 1 } }, step: '__post__/0', element: null };
  const before: RunStateView = { ...base, chain };
  const after: RunStateView = { ...base, seq: 5, chain: { ...chain, value: { size: 8, value: { n: 50 } }, editedAt: '__post__/1' } };
  assert.deepEqual(
    stateChanges(before, after).map((c) => c.path),
    ['/chain/value/size', '/chain/value/value/n'],
  );
});

test("a chain's value said to be a fork's edit of its own input (editedOver) is not a change of its own either", () => {
  const chain = { prefix: '__post__', phase: '__post__', value: { size: 7, value: { n: 1 } }, step: null, element: null };
  const before: RunStateView = { ...base, chain };
  const after: RunStateView = { ...base, seq: 5, chain: { ...chain, editedAt: '__post__', editedOver: 'write' } };
  assert.deepEqual(stateChanges(before, after), []);
});

test("a message said to be a phase's input edited at the fork point (editedAt) is not a change of its own", () => {
  const before: RunStateView = { ...base, transcript: [] };
  const after: RunStateView = { ...base, seq: 5, transcript: [{ ...base.transcript[0], editedAt: 'work', editedOver: null }] };
  assert.doesNotMatch(JSON.stringify(stateChanges(before, after)), /editedAt|editedOver/);
  assert.deepEqual(stateChanges(before, after).map((c) => c.path), ['/transcript/0']);
});
