// `stagecraft worker` told to stop while it is still starting (here: its Postgres server accepts the
// connection and never answers) exits 0 at once, saying so — as a supervisor scaling down a worker that
// just started expects of any stop. Before, its handlers came only once it was ready: the signal killed it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { BIN, ROOT } from './testing/spawn-cli';

test('SIGTERM while the worker is still opening its store: exit 0, no run taken', async () => {
  const held: net.Socket[] = [];
  let connected!: () => void;
  const reached = new Promise<void>((resolve) => (connected = resolve));
  const silent = net.createServer((socket) => {
    held.push(socket);
    connected();
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const port = (silent.address() as net.AddressInfo).port;
  const child = spawn(process.execPath, [BIN, 'worker'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/none` }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  try {
    await reached; // the worker is opening its store: well inside its command
    child.kill('SIGTERM');
    const { code, signal } = await exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, err);
    assert.match(err, /SIGTERM while starting: no run taken, exiting/);
  } finally {
    child.kill('SIGKILL');
    for (const s of held) s.destroy();
    silent.close();
  }
});
