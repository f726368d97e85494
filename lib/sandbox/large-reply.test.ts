// A reply line over LARGE_REPLY_CHARS is read in stages with turns of the event loop between them
// (join, depth check, parse), so a 16 MB reply never holds the server's loop for all of them at once;
// its answers are parseMessage's, word for word, and what follows it on the channel is read in order.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { turnCounter } from '../kernel/testing';
import { FAKE_WORKER_PRELUDE, onEachRequest } from './testing/fake-worker';
import { LARGE_REPLY_CHARS, parseLargeMessage, parseMessage, WorkerProcess } from './worker';


const big = (value: string): string => `{"id":1,"ok":true,"value":${value}}`;
const LONG = JSON.stringify('x'.repeat(LARGE_REPLY_CHARS));

test('a large line: its depth check and its parse each come after a turn of the event loop', async () => {
  const line = big(LONG);
  const parse = JSON.parse;
  let turnsAtParse = -1;
  const counter = turnCounter();
  JSON.parse = ((text: string, ...rest: never[]) => {
    if (text === line) turnsAtParse = counter.turns;
    return parse(text, ...rest);
  }) as typeof JSON.parse;
  try {
    const m = await parseLargeMessage(line);
    assert.equal(typeof m === 'object' && m.value, parse(LONG));
  } finally {
    JSON.parse = parse;
    counter.stop();
  }
  // one turn after the join (before the depth check), one after the depth check
  assert.ok(turnsAtParse >= 2, `JSON.parse ran after ${turnsAtParse} turns`);
});

test('a large line: the same answers as parseMessage, word for word', async () => {
  const pad = 'x'.repeat(LARGE_REPLY_CHARS);
  const lines = [
    big(LONG),
    big(`[${'['.repeat(200)}${']'.repeat(200)}, "${pad}"]`),
    `${big(LONG)} trailing`,
    `[${JSON.stringify(pad)}]`,
    `{"ok":true,"value":${LONG}}`,
    `{"id":1,"ok":"yes","pad":${LONG}}`,
  ];
  for (const line of lines) assert.deepEqual(await parseLargeMessage(line), parseMessage(line), line.slice(0, 40));
});

const dir = mkdtempSync(path.join(tmpdir(), 'sc-large-reply-'));
const FAKE = path.join(dir, 'large_worker.cjs');
// answers each request with a large reply (or, for input.deep, a large one nested too deep), in one write;
// for input.late, the large reply is for another call (one that timed out) and this call's answer follows in
// the same write: it waits its turn
writeFileSync(
  FAKE,
  FAKE_WORKER_PRELUDE +
    onEachRequest(`  const s = 'y'.repeat(input.n);
  const value = input.deep ? '['.repeat(200) + JSON.stringify(s) + ']'.repeat(200) : JSON.stringify({ s });
  const line = (i, v) => '{"id":' + i + ',"ok":true,"value":' + v + '}\\n';
  write(Buffer.from(input.late ? line(id + 7, value) + line(id, '"second"') : line(id, value)));`) +
    'setInterval(() => {}, 1000);\n',
);

test('a worker: a large reply arrives whole, one nested too deep is refused as before, and a line after a large one is read after it', async () => {
  const w = new WorkerProcess({ command: process.execPath, args: [FAKE], env: {}, cwd: dir });
  const call = (input: Record<string, unknown>) => w.run({ modulePath: '/m.mjs', exportName: 'f', input: input as never, timeoutMs: 20_000 });
  try {
    await w.ready;
    const n = 3 * LARGE_REPLY_CHARS;
    const first = await call({ n });
    assert.equal(first.kind, 'reply');
    assert.equal((first as unknown as { reply: { value: { s: string } } }).reply.value.s.length, n);
    // a large line for another call, then this call's answer: read in order, the answer once the large line was read
    assert.deepEqual(await call({ n, late: true }).then((o) => o.kind === 'reply' && o.reply), { ok: true, value: 'second' });
  } finally {
    await w.kill();
  }
  const deep = new WorkerProcess({ command: process.execPath, args: [FAKE], env: {}, cwd: dir });
  try {
    await deep.ready;
    const o = await deep.run({ modulePath: '/m.mjs', exportName: 'f', input: { n: 2 * LARGE_REPLY_CHARS, deep: true }, timeoutMs: 20_000 });
    assert.deepEqual(o.kind === 'protocol' && o.why, 'a value nested deeper than 128 levels');
  } finally {
    await deep.kill();
  }
});
