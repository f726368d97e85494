// Which output is a call's own: the split at a call's marks in any chunking, and real warm workers
// (python and node) whose calls follow each other at once, the first leaving its output unread; and
// that what is kept of it shows its characters whole.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { markBytes, MarkedStream, newCallMark } from './call-marks';
import { launchCommand, workerEnv } from './runtime';
import { WorkerProcess, type CallOutcome } from './worker';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const home = mkdtempSync(path.join(tmpdir(), 'sc-marks-'));
after(() => rmSync(home, { recursive: true, force: true }));

function split(chunks: Buffer[], mark: string): { call: string; other: number; ends: number } {
  let call = '';
  let other = 0;
  let ends = 0;
  const m = new MarkedStream(
    (b) => (call += b.toString('latin1')),
    (n) => (other += n),
    () => ends++,
  );
  m.idle();
  m.expect(mark);
  for (const c of chunks) m.push(c);
  return { call, other, ends };
}

test('a stream is split at the call’s marks in any chunking; another call’s mark (a forgery, or a stale one) is just bytes', () => {
  const mark = newCallMark();
  const stale = newCallMark();
  assert.notEqual(mark, stale);
  const whole = Buffer.concat([
    Buffer.from('left over\0\0'),
    markBytes(stale, 'e'),
    markBytes(mark, 'b'),
    Buffer.from('mine \0sc:'),
    markBytes(stale, 'b'),
    Buffer.from(' all mine'),
    markBytes(mark, 'e'),
    Buffer.from('later\0sc:'),
  ]);
  const ownText = `mine \0sc:${markBytes(stale, 'b').toString('latin1')} all mine`;
  for (const size of [1, 2, 5, 13, 64, whole.length]) {
    const chunks: Buffer[] = [];
    for (let at = 0; at < whole.length; at += size) chunks.push(whole.subarray(at, at + size));
    const got = split(chunks, mark);
    assert.equal(got.call, ownText, `chunks of ${size}`);
    assert.equal(got.ends, 1);
    // before the begin mark and after the end mark: counted, not the call's
    assert.equal(got.other, 'left over\0\0'.length + markBytes(stale, 'e').length + 'later\0sc:'.length, `chunks of ${size}`);
  }
});

/** a real warm worker of `flavour`, as the sandbox starts one unisolated */
async function worker(flavour: 'python' | 'node'): Promise<WorkerProcess> {
  const { command, args } = launchCommand(flavour, 512);
  const w = new WorkerProcess({ command, args, env: workerEnv(home, flavour), cwd: FIXTURES });
  await w.ready;
  return w;
}
const PY = path.join(FIXTURES, 'steps.py');
const output = (o: CallOutcome) => o.output;

test('python: the next call, sent the moment a call returns with its output unread in the pipe (throttled), reads none of it; that call’s own tail ends where it did', async () => {
  const w = await worker('python');
  try {
    for (let i = 0; i < 3; i++) {
      const filled = await w.run({ modulePath: PY, exportName: 'fill_pipe', input: { fail: i === 2 }, timeoutMs: 20_000 });
      const next = await w.run({ modulePath: PY, exportName: 'flood_now', input: { seconds: 0, fail: true }, timeoutMs: 20_000 });
      assert.equal(output(next).stdout, 'FIRST LINE\n\nLAST LINE\n', `round ${i + 1}`);
      if (i === 2) assert.match(output(filled).stdout, /\n\[… \d+ bytes of output left out …\]\n[y\n]+$/, 'its tail');
    }
  } finally {
    await w.kill();
  }
});

test('node: console output is the call’s, whole, with no mark in it', async () => {
  const w = await worker('node');
  try {
    for (let i = 0; i < 3; i++) {
      const o = await w.run({ modulePath: path.join(FIXTURES, 'steps.mjs'), exportName: 'chatty', input: {}, timeoutMs: 20_000 });
      assert.deepEqual(output(o), { stdout: 'hello from console.log\n{"id": 1, "ok": true}\n', stderr: 'to stderr\n' });
    }
  } finally {
    await w.kill();
  }
});

test('python: output past the head and tail with a multi-byte character across each cut: no replacement character, the characters kept whole', async () => {
  const w = await worker('python');
  try {
    const text = 'x' + '€'.repeat(3000) + '😀'.repeat(3000) + 'x';
    const o = await w.run({ modulePath: PY, exportName: 'say', input: { text }, timeoutMs: 20_000 });
    const [head, tail] = output(o).stdout.split(/\n\[… \d+ bytes of output left out …\]\n/);
    assert.equal(head, 'x' + '€'.repeat(1365));
    assert.equal(tail, '😀'.repeat(1023) + 'x');
  } finally {
    await w.kill();
  }
});
