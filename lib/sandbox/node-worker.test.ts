// The node worker script on its own, driven over its protocol pipes: requests sent back to back
// (the host never does, but nothing in the worker may depend on it) are answered in order, each
// function called once — a warm sync function is answered at once only when nothing is running.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WORKER = path.join(HERE, 'workers', 'node_worker.mjs');
const JS = path.join(HERE, 'fixtures', 'steps.mjs');

test('requests sent back to back are answered in order, each function called once, sync or async', async () => {
  const child = spawn(process.execPath, [WORKER], { stdio: ['ignore', 'ignore', 'inherit', 'pipe', 'pipe'] });
  const [, , , requests, replies] = child.stdio as unknown as [null, null, null, Writable, Readable];
  const lines: Record<string, unknown>[] = [];
  let buffered = '';
  let wake = () => {};
  replies.setEncoding('utf8');
  replies.on('data', (s: string) => {
    buffered += s;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buffered.slice(0, nl)));
      buffered = buffered.slice(nl + 1);
    }
    wake();
  });
  const until = async (n: number) => {
    while (lines.length < n) await new Promise<void>((r) => (wake = r));
  };
  try {
    await until(1);
    assert.equal(lines[0].type, 'ready');
    const call = (id: number, exportName: string) => JSON.stringify({ id, modulePath: JS, exportName, input: {} }) + '\n';
    requests.write(call(1, 'count')); // imports the module (an await), then counts
    await until(2);
    // warm now: a sync function behind an async one must wait for it, and one behind it too
    requests.write(call(2, 'countLater') + call(3, 'count') + call(4, 'countLater') + call(5, 'count'));
    await until(6);
    const replies = lines.slice(1) as { id: number; ok: boolean; value: { calls: number } }[];
    assert.deepEqual(replies.map((r) => r.id), [1, 2, 3, 4, 5], 'answered in the order asked');
    assert.deepEqual(replies.map((r) => r.value.calls), [1, 2, 3, 4, 5], 'each function called once, in that order');
    requests.write(call(6, 'count')); // nothing running: answered at once, still once
    await until(7);
    assert.deepEqual(lines[6], { ok: true, value: { calls: 6 }, id: 6 });
  } finally {
    child.kill('SIGKILL');
  }
});

test('told its launcher kills it with its parent (--dies-with-parent), the worker starts no thread to watch for that', async () => {
  /** the worker's threads once it is ready and its watching thread, if any, has started */
  const threadsWhenUp = async (args: string[]) => {
    const child = spawn(process.execPath, [WORKER, ...args], { stdio: ['ignore', 'ignore', 'inherit', 'pipe', 'pipe'] });
    try {
      const replies = (child.stdio as unknown as Readable[])[4];
      await new Promise((r) => replies.once('data', r)); // ready
      await new Promise((r) => setTimeout(r, 500));
      return Number(/^Threads:\s+(\d+)$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]);
    } finally {
      child.kill('SIGKILL');
    }
  };
  const watching = await threadsWhenUp([]);
  const told = await threadsWhenUp(['--dies-with-parent']);
  assert.equal(watching - told, 1, `${watching} threads without the flag, ${told} with it`);
});
