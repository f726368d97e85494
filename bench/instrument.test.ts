// instrument: a port's calls timed, their promise handed over as it is
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instrument } from './instrument';

test("the caller gets the call's own promise: no turn of the microtask queue between the call settling and the caller", async () => {
  let resolve!: (v: number) => void;
  const call = new Promise<number>((r) => (resolve = r));
  const port = { commit: (_x: number) => call };
  const seen: unknown[][] = [];
  instrument(port, 'commit', (args) => seen.push(args));
  const p = port.commit(7);
  assert.equal(p, call); // a wrapper's promise would settle a turn after the call's
  resolve(1);
  assert.equal(await p, 1);
  assert.deepEqual(seen, [[7]]);
});

test('a call that rejects is timed too, and its caller hears the rejection (the timing branch never rejects unheard)', async () => {
  const port = { commit: async () => Promise.reject(new Error('refused')) };
  let timed = 0;
  instrument(port, 'commit', () => timed++);
  await assert.rejects(port.commit(), /refused/);
  await new Promise((r) => setImmediate(r));
  assert.equal(timed, 1);
});

test('a call that throws before it returns a promise is a rejection, timed', async () => {
  const port = {
    commit: (): Promise<unknown> => {
      throw new Error('at once');
    },
  };
  let timed = 0;
  instrument(port, 'commit', () => timed++);
  await assert.rejects(port.commit(), /at once/);
  assert.equal(timed, 1);
});
