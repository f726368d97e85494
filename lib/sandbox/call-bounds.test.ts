// Which output is a call's own, through real warm workers (python and node): output written right before
// each reply, on both streams, in every size up to past a pipe's buffer, is its call's whole and no other's
// (the order the host's loop reads the pipes and the reply in); calls following each other at once, the
// first leaving its output unread (throttled); what a thread writes between calls, read then or only after
// the next call was sent; and that what is kept shows its characters whole.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launchCommand, workerEnv } from './runtime';
import { startSpawner, stopSpawner } from './spawner';
import { WorkerProcess, type CallOutcome } from './worker';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const home = mkdtempSync(path.join(tmpdir(), 'sc-bounds-'));
after(() => rmSync(home, { recursive: true, force: true }));

/** a real warm worker of `flavour`, as the sandbox starts one unisolated (forked here, or `spawned` by the app's spawner: sockets, not pipes) */
async function worker(flavour: 'python' | 'node', spawned = false): Promise<WorkerProcess> {
  const { command, args } = launchCommand(flavour, 512);
  const launch = { command, args, env: workerEnv(home, flavour), cwd: FIXTURES };
  const spawner = spawned ? await startSpawner() : null;
  const w = spawner ? new WorkerProcess(launch, (l) => spawner.spawn(l)) : new WorkerProcess(launch);
  await w.ready;
  return w;
}
const PY = path.join(FIXTURES, 'steps.py');
const output = (o: CallOutcome) => o.output;

/** `n` calls of `exportName` back to back, each printing its own text (sizes from none to past a pipe's 64 KiB) on both streams right before its reply */
async function ownOutputs(w: WorkerProcess, modulePath: string, exportName: string, n: number): Promise<void> {
  const sizes = [0, 1, 100, 4000, 70_000, 9];
  for (let i = 0; i < n; i++) {
    const size = sizes[i % sizes.length];
    const out = `<${i}>`.padEnd(size, 'o').slice(0, size);
    const err = `[${i}]`.padEnd(size >> 1, 'e').slice(0, size >> 1);
    const o = await w.run({ modulePath, exportName, input: { out, err, n: i }, timeoutMs: 20_000 });
    assert.equal(o.kind, 'reply');
    const keep = (s: string) => (s.length > 8192 ? `${s.slice(0, 4096)}|${s.slice(-4096)}` : s);
    const got = (s: string) => s.replace(/\n\[… \d+ bytes of output left out …\]\n/, '|');
    assert.equal(got(output(o).stdout), keep(out), `call ${i}: stdout`);
    assert.equal(got(output(o).stderr), keep(err), `call ${i}: stderr`);
  }
}

for (const flavour of ['python', 'node'] as const) {
  test(`${flavour}: what a call prints right before its reply, on both streams, is its own whole, call after call`, async () => {
    const w = await worker(flavour);
    try {
      if (flavour === 'python') await ownOutputs(w, PY, 'print_both', 300);
      else await ownOutputs(w, path.join(FIXTURES, 'steps.mjs'), 'print', 300);
    } finally {
      await w.kill();
    }
  });
}

for (const spawned of [false, true]) {
  test(`python${spawned ? ', through the spawner' : ''}: what a thread a call left writes between calls is nobody’s when read before the next call; unread then (the host busy), it is that call’s`, async () => {
    const w = await worker('python', spawned);
    try {
      if (spawned) await ownOutputs(w, PY, 'print_both', 60);
      for (const isBusy of [false, true, false]) {
        await w.run({ modulePath: PY, exportName: 'late_print', input: { delay: 0.05, text: 'LATE LINE\n' }, timeoutMs: 20_000 });
        // the thread writes 50 ms later: the host's loop reads it then, or (busy) not before the next call is sent
        if (isBusy) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
        else await new Promise((r) => setTimeout(r, 200));
        const next = await w.run({ modulePath: PY, exportName: 'flood_now', input: { seconds: 0, fail: true }, timeoutMs: 20_000 });
        assert.equal(output(next).stdout, `${isBusy ? 'LATE LINE\n' : ''}FIRST LINE\n\nLAST LINE\n`, isBusy ? 'the host busy' : 'read between calls');
      }
    } finally {
      await w.kill();
      if (spawned) await stopSpawner();
    }
  });
}

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
