// `stagecraft worker` told to stop while it is still starting exits 0 at once, saying so — as a supervisor
// scaling down a worker that just started expects of any stop — from bin/stagecraft.mjs's first lines on:
//   - while its command opens the store (here: a Postgres server that accepts the connection and never
//     answers). Before, its handlers came only once it was ready: the signal killed it.
//   - while node is still loading the command's modules (bin holds the signal, the command takes it up).
//     Before, node's default disposition killed it there: no exit code, read as a crash.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, ROOT } from './testing/spawn-cli';

/** a "Postgres server" that accepts connections and never answers: a worker that reaches it stays starting */
const held: net.Socket[] = [];
let connected!: () => void;
const reached = new Promise<void>((resolve) => (connected = resolve));
const silent = net.createServer((socket) => {
  held.push(socket);
  connected();
});
const listening = new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
const tmp = mkdtempSync(path.join(tmpdir(), 'sc-worker-signal-'));
after(() => {
  for (const s of held) s.destroy();
  silent.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** the loader hook that reports (and can hold) bin's imports: cli/testing/hold-load.mjs */
const HOLD_LOAD = path.join(ROOT, 'cli', 'testing', 'hold-load.mjs');

type Worker = { child: ChildProcess; err: () => string; saw: (line: string) => Promise<void>; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> };

async function startWorker(opts: { nodeArgs?: string[]; env?: Record<string, string> } = {}): Promise<Worker> {
  await listening;
  const port = (silent.address() as net.AddressInfo).port;
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), BIN, 'worker'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/none`, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  const waiting: { line: string; resolve: () => void }[] = [];
  child.stderr!.on('data', (d: Buffer) => {
    err += d;
    for (const w of waiting.filter((w) => err.includes(w.line))) w.resolve();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const saw = (line: string) =>
    new Promise<void>((resolve, reject) => {
      if (err.includes(line)) return resolve();
      waiting.push({ line, resolve });
      void exited.then(({ code, signal }) => reject(new Error(`the worker exited (${code ?? signal}) before saying ${JSON.stringify(line)}: ${err}`)));
    });
  return { child, err: () => err, saw, exited };
}

/** the kernel has handed `signal` to the process (it is pending no more): the process's handler, if any, is running or has run */
async function delivered(pid: number, signal: number): Promise<void> {
  const bit = 1n << BigInt(signal - 1);
  for (let i = 0; i < 2000; i++) {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      return; // gone (without the fix: killed by it)
    }
    const pending = [...status.matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm)].some((m) => (BigInt(`0x${m[1]}`) & bit) !== 0n);
    if (!pending) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`signal ${signal} still pending for process ${pid}`);
}

test('SIGTERM while the worker is still opening its store: exit 0, no run taken', async () => {
  const w = await startWorker();
  try {
    await reached; // the worker is opening its store: well inside its command
    w.child.kill('SIGTERM');
    const { code, signal } = await w.exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, w.err());
    assert.match(w.err(), /SIGTERM while starting: no run taken, exiting/);
  } finally {
    w.child.kill('SIGKILL');
  }
});

test('SIGTERM while node is still loading the command (held there): exit 0, saying so', async () => {
  // the hook holds bin's import of the compiled command until `release` exists: the signal lands inside the load
  const release = path.join(tmp, 'release');
  const w = await startWorker({ nodeArgs: ['--import', HOLD_LOAD], env: { HOLD_LOAD_UNTIL: release } });
  const connections = held.length;
  try {
    await w.saw('hold-load: cli');
    w.child.kill('SIGTERM');
    await delivered(w.child.pid!, 15);
    writeFileSync(release, '');
    const { code, signal } = await w.exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, w.err());
    assert.match(w.err(), /SIGTERM while loading: no run taken, exiting/);
    assert.equal(held.length, connections, 'the worker connected to the store after its stop');
  } finally {
    w.child.kill('SIGKILL');
  }
});

test('SIGTERM or SIGINT at any moment from bin on, through the load and the start: exit 0 every time', async () => {
  // from the moment bin imports its first module (its handlers are on before), after these delays: whatever
  // the machine's load makes of them, each lands somewhere in the load or the start, and each must give 0
  for (const [i, delayMs] of [0, 0, 5, 15, 30, 60, 120, 250].entries()) {
    const sig = i % 2 ? 'SIGINT' : 'SIGTERM';
    const w = await startWorker({ nodeArgs: ['--import', HOLD_LOAD] });
    try {
      await w.saw('hold-load: built');
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      w.child.kill(sig);
      const { code, signal } = await w.exited;
      assert.deepEqual({ code, signal }, { code: 0, signal: null }, `${sig} ${delayMs} ms after bin's first import: ${w.err()}`);
      assert.match(w.err(), new RegExp(`${sig} while (loading|starting): no run taken, exiting`));
    } finally {
      w.child.kill('SIGKILL');
    }
  }
});
