// The analysis worker's reply through shared memory: written whole or not at all, read only by the
// id it was written for; and the page's channel applies a reply found there in an animation frame,
// once, whichever of the frame and the worker's message comes first — by message only (as before)
// where there is no shared buffer, or the reply does not fit in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { AnalysisChannel, type ChannelHost } from '../hooks/use-analysis';
import { readSharedReply, replyMessage, sharedReplyBuffer, writeSharedReply } from './shared-reply';
import { Analyzer, type AnalysisRequest, type AnalysisWorkerReply } from './studio-analysis';

const isolated = { crossOriginIsolated: true };
const files = Object.fromEntries(['skill.md', 'model.yaml', 'sanitize.py', 'input.json', 'report.txt'].map((f) => [f, readFileSync(`examples/summarize/${f}`, 'utf8')]));
const analyze = (id: number, f: Record<string, string>): AnalysisRequest => ({ kind: 'analyze', id, files: f, knownSkills: ['summarize'], skillName: 'summarize' });

test('a reply is read back by the id it was written for, whole (non-ASCII text too), and by no other', () => {
  const buffer = sharedReplyBuffer(1 << 16, isolated)!;
  assert.ok(buffer instanceof SharedArrayBuffer);
  assert.equal(readSharedReply(buffer, 1), null, 'nothing written yet');
  const reply = { kind: 'analysis', id: 7, bodyLine: 12, diagnostics: [{ message: 'déjà vu — 🙂', line: 1 }], diagram: null };
  assert.equal(writeSharedReply(buffer, 7, reply), true);
  assert.deepEqual(readSharedReply(buffer, 7), reply);
  assert.equal(readSharedReply(buffer, 6), null, 'an older id');
  assert.equal(readSharedReply(buffer, 8), null, 'a later id, not written yet');
  // the next reply replaces it
  assert.equal(writeSharedReply(buffer, 8, { kind: 'key', id: 8, keyInfo: null }), true);
  assert.deepEqual(readSharedReply(buffer, 8), { kind: 'key', id: 8, keyInfo: null });
  assert.equal(readSharedReply(buffer, 7), null);
});

test('a reply that does not fit is not written (its message carries it); the buffer keeps the last one', () => {
  const buffer = sharedReplyBuffer(64, isolated)!;
  assert.equal(writeSharedReply(buffer, 1, { kind: 'key', id: 1, keyInfo: null }), true);
  const big = { kind: 'analysis', id: 2, bodyLine: 1, diagnostics: [{ message: 'x'.repeat(100) }] };
  assert.equal(writeSharedReply(buffer, 2, big), false);
  assert.equal(readSharedReply(buffer, 2), null);
  assert.deepEqual(readSharedReply(buffer, 1), { kind: 'key', id: 1, keyInfo: null });
  assert.deepEqual(replyMessage(buffer, big), big, 'posted whole');
  // multi-byte characters that fit by count of UTF-16 units but not in bytes: not written either
  const wide = { kind: 'analysis', id: 3, m: '€'.repeat(20) };
  assert.ok(JSON.stringify(wide).length <= 64 && new TextEncoder().encode(JSON.stringify(wide)).length > 64);
  assert.deepEqual(replyMessage(buffer, wide), wide);
  assert.deepEqual(replyMessage(buffer, { kind: 'key', id: 4, keyInfo: null }), { kind: 'shared', id: 4 });
  assert.deepEqual(replyMessage(null, { kind: 'key', id: 5, keyInfo: null }), { kind: 'key', id: 5, keyInfo: null }, 'no buffer: the reply itself');
  // a buffer it cannot write (here: too short for its header): the reply goes by message, never a failed analysis
  assert.deepEqual(replyMessage(new SharedArrayBuffer(4), { kind: 'key', id: 6, keyInfo: null }), { kind: 'key', id: 6, keyInfo: null });
});

test('no shared buffer where the page is not cross-origin isolated', () => {
  assert.equal(sharedReplyBuffer(64, { crossOriginIsolated: false }), null);
  assert.equal(sharedReplyBuffer(64, {}), null);
});

/** a worker answering as analysis.worker.ts does, when the test says so; the animation frames run when the test says so */
function fakeHost(shared: SharedArrayBuffer | null) {
  const analyzer = new Analyzer();
  let buffer: SharedArrayBuffer | null = null;
  const requests: AnalysisRequest[] = [];
  const frames: ((t: number) => void)[] = [];
  const worker = {
    onmessage: null as ((e: { data: unknown }) => void) | null,
    onerror: null,
    postMessage(m: AnalysisRequest | { kind: 'shared'; buffer: SharedArrayBuffer }) {
      if (m.kind === 'shared') buffer = m.buffer;
      else requests.push(m);
    },
    terminate() {},
  };
  const host: ChannelHost = { startWorker: () => worker as unknown as Worker, sharedBuffer: () => shared, frame: (cb) => void frames.push(cb) };
  return {
    host,
    requests,
    /** the worker answers the oldest request: writes the reply, and returns the message it posts (delivered by `deliver`) */
    answer(): unknown {
      return replyMessage(buffer, analyzer.handle(requests.shift()!));
    },
    deliver(message: unknown) {
      worker.onmessage!({ data: message });
    },
    runFrames(time: number) {
      const due = frames.splice(0);
      for (const f of due) f(time);
      return due.length;
    },
  };
}

function channel(shared: SharedArrayBuffer | null) {
  const fake = fakeHost(shared);
  const applied: { id: number; frame?: number }[] = [];
  const c = new AnalysisChannel((r, frame) => applied.push({ id: r.id, frame }), fake.host);
  return { ...fake, c, applied };
}

test('a reply in shared memory by the next frame is applied in that frame, once: the message after it is dropped', () => {
  const { c, requests, answer, deliver, runFrames, applied } = channel(sharedReplyBuffer(undefined, isolated));
  c.send(analyze(1, files));
  assert.equal(requests.length, 1);
  const message = answer();
  assert.deepEqual(message, { kind: 'shared', id: 1 });
  assert.equal(runFrames(16), 1);
  assert.deepEqual(applied, [{ id: 1, frame: 16 }]);
  deliver(message);
  assert.deepEqual(applied, [{ id: 1, frame: 16 }], 'applied once');
  assert.equal(runFrames(32), 0, 'no frame looks once it is applied');
  // the next keystroke goes out as soon as the reply is in
  c.send(analyze(2, { ...files, 'skill.md': files['skill.md'].replace(/^description: (.*)$/m, 'description: $1 x') }));
  assert.equal(requests.length, 1);
  assert.equal(requests[0].id, 2);
});

test('a reply not ready by a frame: each frame looks again, and the message, if it comes first, applies it', () => {
  const { c, answer, deliver, runFrames, applied } = channel(sharedReplyBuffer(undefined, isolated));
  c.send(analyze(1, files));
  assert.equal(runFrames(16), 1);
  assert.deepEqual(applied, [], 'not answered yet');
  const message = answer();
  assert.equal(runFrames(33), 1, 'looked again');
  assert.deepEqual(applied, [{ id: 1, frame: 33 }]);
  deliver(message);
  c.send(analyze(2, files));
  runFrames(50);
  // the message first, and the next request out before any frame: still one frame asked for, not one per request
  deliver(answer());
  c.send(analyze(3, files));
  deliver(answer());
  assert.deepEqual(applied, [{ id: 1, frame: 33 }, { id: 2, frame: undefined }, { id: 3, frame: undefined }], 'by message, in a task of its own');
  assert.equal(runFrames(66), 1, 'one look per frame');
  assert.equal(applied.length, 3, 'the frame after it applies nothing');
  assert.equal(runFrames(83), 0);
});

test('a reply too large for the buffer comes whole by message, and is applied from it', () => {
  const { c, answer, deliver, runFrames, applied } = channel(sharedReplyBuffer(64, isolated));
  c.send(analyze(1, files));
  const message = answer() as AnalysisWorkerReply;
  assert.equal(message.kind, 'analysis', 'the reply itself, not a notice');
  assert.equal(runFrames(16), 1);
  assert.deepEqual(applied, []);
  deliver(message);
  assert.deepEqual(applied, [{ id: 1, frame: undefined }]);
  runFrames(33); // the frame that looks again finds nothing to do
  assert.deepEqual(applied, [{ id: 1, frame: undefined }]);
  assert.equal(runFrames(50), 0, 'and asks for no more');
});

test('without a shared buffer (not cross-origin isolated): no frame is asked for, every reply comes by message, as before', () => {
  const { c, requests, answer, deliver, runFrames, applied } = channel(null);
  c.send(analyze(1, files));
  c.send(analyze(2, files)); // waits for the first
  assert.equal(requests.length, 1);
  const message = answer() as AnalysisWorkerReply;
  assert.equal(message.kind, 'analysis');
  assert.equal(runFrames(16), 0);
  deliver(message);
  assert.deepEqual(applied, [{ id: 1, frame: undefined }]);
  assert.equal(requests.length, 1, 'the waiting one goes out');
  deliver(answer());
  assert.deepEqual(applied.map((a) => a.id), [1, 2]);
});

/** writes bytes that are no JSON under the sequence number `seq`, as a worker that broke mid-write would leave them */
function spoil(buffer: SharedArrayBuffer, seq: number): void {
  const words = new Int32Array(buffer, 0, 2);
  new Uint8Array(buffer, 8).set([123, 34, 107]); // `{"k`
  Atomics.store(words, 1, 3);
  Atomics.store(words, 0, seq);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 80));

test('a reply that cannot be read from shared memory is answered here: the channel neither throws in the frame nor waits for ever', async () => {
  const shared = sharedReplyBuffer(undefined, isolated)!;
  const { c, requests, runFrames, deliver, applied } = channel(shared);
  c.send(analyze(1, files));
  assert.equal(requests.length, 1);
  spoil(shared, 1);
  assert.doesNotThrow(() => runFrames(16));
  deliver({ kind: 'shared', id: 1 }); // the notice after it changes nothing
  await settle();
  assert.deepEqual(applied.map((a) => a.id), [1], 'the same request, answered by the analyser here');
  // and the channel goes on: the next keystroke is answered here too, not sent to the worker
  c.send(analyze(2, files));
  await settle();
  assert.deepEqual(applied.map((a) => a.id), [1, 2]);
  assert.equal(requests.length, 1, 'the worker is asked nothing more');
});

test('a notice whose reply is not in shared memory, or a failure the worker reports, is answered here', async () => {
  for (const message of [{ kind: 'shared', id: 1 }, { kind: 'failed', id: 1 }]) {
    const { c, runFrames, deliver, applied } = channel(sharedReplyBuffer(undefined, isolated));
    c.send(analyze(1, files));
    assert.equal(runFrames(16), 1);
    deliver(message);
    await settle();
    assert.deepEqual(applied.map((a) => a.id), [1], `${message.kind}: answered here`);
  }
  // a later keystroke waiting when the worker fails is the one answered (not the older one as well)
  const { c, deliver, applied } = channel(null);
  c.send(analyze(1, files));
  c.send(analyze(2, files));
  deliver({ kind: 'failed', id: 1 });
  await settle();
  assert.deepEqual(applied.map((a) => a.id), [2]);
});
