// The process-wide cap on live workers: excess calls wait; an idle warm worker gives its slot up to
// a waiting call; many sandboxes at once never have more workers than the cap.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { createCodeSandbox } from './sandbox';
import { WorkerSlots } from './worker-slots';

test('a slot past the cap waits; an idle holder is asked to stop; a released slot passes straight to the waiter', async () => {
  const slots = new WorkerSlots(2);
  const a = await slots.acquire();
  const b = await slots.acquire();
  assert.equal(slots.count, 2);
  let evicted = 0;
  const unmark = slots.markIdle(() => evicted++);
  let third = false;
  const c = slots.acquire().then((release) => ((third = true), release));
  await new Promise((r) => setImmediate(r));
  assert.equal(third, false, 'the third waits');
  assert.equal(evicted, 1, 'the idle worker was asked to stop');
  unmark();
  a(); // its exit
  const releaseC = await c;
  assert.equal(third, true);
  assert.equal(slots.count, 2);
  a(); // a second release of the same slot is ignored
  assert.equal(slots.count, 2);
  b();
  releaseC();
  assert.equal(slots.count, 0);
});

test('a busy worker is never stopped for another: the waiter gets the slot when the call ends', async () => {
  const slots = new WorkerSlots(1);
  const busy = await slots.acquire();
  let got = false;
  const waiting = slots.acquire().then((r) => ((got = true), r));
  await new Promise((r) => setImmediate(r));
  assert.equal(got, false);
  busy();
  (await waiting)();
  assert.equal(got, true);
});

const dir = mkdtempSync(path.join(tmpdir(), 'sc-slots-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const PY = path.join(dir, 'w.py');
writeFileSync(PY, 'import os, time\nTOKEN = os.urandom(6).hex()\ndef nap(v):\n    time.sleep(v["s"])\n    return {"token": TOKEN}\n');
const PID = path.join(dir, 'p.py');
writeFileSync(PID, 'import os\ndef pid(v):\n    return os.getpid()\n');

test('six sandboxes (six runs) calling at once on a cap of 2: every call completes, never more than 2 workers live', async () => {
  const slots = new WorkerSlots(2);
  const sandboxes = Array.from({ length: 6 }, () => createCodeSandbox({ slots }));
  let most = 0;
  const sample = setInterval(() => (most = Math.max(most, slots.count)), 5);
  try {
    const call = (i: number) => sandboxes[i].call({ language: 'python', modulePath: PY, exportName: 'nap', input: { s: 0.2 }, timeoutMs: 20_000 }) as Promise<{ token: string }>;
    const first = await Promise.all(sandboxes.map((_, i) => call(i)));
    assert.equal(new Set(first.map((r) => r.token)).size, 6, 'each sandbox ran its call on a worker of its own');
    assert.ok(most <= 2, `${most} workers were live at once`);
    // sandbox 0's warm worker was stopped for the others: its next call starts a fresh one
    const again = await call(0);
    assert.notEqual(again.token, first[0].token);
  } finally {
    clearInterval(sample);
    await Promise.all(sandboxes.map((s) => s.close()));
  }
  assert.equal(slots.count, 0, 'every slot came back');
});

test('a warm worker that dies while idle is no longer one to stop: a later waiter stops a live idle one', async () => {
  const slots = new WorkerSlots(2);
  const unisolated = { kind: 'none', reason: 'the test kills a worker by its pid' } as const;
  const [a, b, c, d] = Array.from({ length: 4 }, () => createCodeSandbox({ slots, isolation: unisolated }));
  const pidOf = async (s: typeof a) => (await s.call({ language: 'python', modulePath: PID, exportName: 'pid', input: null, timeoutMs: 20_000 })) as number;
  try {
    for (let i = 0; i < 3; i++) await pidOf(a); // idle between calls, again and again
    process.kill(await pidOf(a), 'SIGKILL'); // a's worker dies while idle (the longest idle)
    const until = Date.now() + 5_000;
    while (slots.count > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    assert.equal(slots.count, 0, "the dead worker's slot came back");
    const bPid = await pidOf(b);
    await pidOf(c); // both slots held by idle workers now
    // d must wait for a slot: the idle worker to stop is b's (the longest idle of the live ones), not a's dead one
    const dPid = await Promise.race([pidOf(d), new Promise<null>((r) => setTimeout(() => r(null), 10_000).unref())]);
    assert.notEqual(dPid, null, "d's call waited for a slot no one would give up");
    assert.ok(await waitUntilGone(bPid), "b's idle worker was stopped for it");
  } finally {
    await Promise.all([a, b, c, d].map((s) => s.close()));
  }
  assert.equal(slots.count, 0, 'every slot came back');
});

async function waitUntilGone(pid: number): Promise<boolean> {
  const until = Date.now() + 5_000;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
}
