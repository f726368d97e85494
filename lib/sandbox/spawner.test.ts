// The spawner (spawner.ts) against real processes: workers are its children, not this process's; a
// connection without a pending spawn's token is refused; a sandbox cannot see the socket; a spawner
// killed mid-step fails that step as sandbox_host_lost, is started again, and the next call works.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CodeCall } from '../kernel/ports';
import { createCodeSandbox } from './index';
import { isolationFor, type Isolation } from './isolation';
import { activeSpawner, Spawner, startSpawner, stopSpawner } from './spawner';
import type { ChildEnd } from './worker-child';

const NONE: Isolation = { kind: 'none', reason: 'the test asks for plain child processes' };
const BWRAP = isolationFor('auto');
let dir: string;
let mod: string;
let spawner: Spawner;

const call = (exportName: string, input: CodeCall['input'] = {}, timeoutMs = 20_000): CodeCall => ({ language: 'node', modulePath: mod, exportName, input, timeoutMs });
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sc-spawner-'));
  mod = path.join(dir, 'steps.mjs');
  writeFileSync(
    mod,
    `import net from 'node:net';
import { existsSync } from 'node:fs';
export function who() { return { pid: process.pid, ppid: process.ppid }; }
export function echo(v) { console.log('out ' + v.n); console.error('err ' + v.n); return { n: v.n }; }
export function fail() { console.error('about to fail'); throw new Error('on purpose'); }
export async function sleep(v) { await new Promise((r) => setTimeout(r, v.ms)); return { slept: v.ms }; }
export async function reach(v) {
  const connected = await new Promise((resolve) => {
    const s = net.createConnection(v.socket);
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', (e) => resolve(e.code));
  });
  return { sees: existsSync(v.dir), connected };
}
`,
  );
  spawner = await startSpawner();
});

after(async () => {
  await stopSpawner();
  rmSync(dir, { recursive: true, force: true });
});

test('workers are the spawner’s children; their stdout, stderr and replies reach the server', async () => {
  assert.equal(activeSpawner(), spawner);
  const sandbox = createCodeSandbox({ isolation: NONE });
  try {
    const { pid, ppid } = (await sandbox.call(call('who'))) as { pid: number; ppid: number };
    assert.equal(ppid, spawner.pid, 'the worker was spawned by the spawner');
    assert.notEqual(parentOf(pid), process.pid);
    assert.deepEqual(await sandbox.call(call('echo', { n: 7 })), { n: 7 });
    // a failure carries the worker's stderr, which came over its own connection
    await assert.rejects(sandbox.call(call('fail')), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'code_failed');
      assert.match(e.message, /on purpose/);
      assert.match(e.message, /about to fail/);
      return true;
    });
    assert.deepEqual(await sandbox.call(call('echo', { n: 8 })), { n: 8 }, 'a fresh worker after the failure');
  } finally {
    await sandbox.close();
  }
});

test('a connection to the socket that does not bring a pending spawn’s token (and an unused role) is closed', async () => {
  const refusedBefore = spawner.refusedConnections;
  const closedAfter = (hello: string) =>
    new Promise<boolean>((resolve) => {
      const s = net.createConnection(spawner.socketPath);
      s.on('error', () => {});
      s.once('connect', () => s.write(hello));
      s.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 5_000).unref();
    });
  assert.ok(await closedAfter('0'.repeat(32) + 'r'), 'a made-up token');
  assert.ok(await closedAfter('not a token at all, but long enough'), 'garbage');
  assert.equal(spawner.refusedConnections, refusedBefore + 2);
  // the socket's folder is this user's alone
  const { statSync } = await import('node:fs');
  assert.equal(statSync(spawner.socketDir).mode & 0o777, 0o700);
});

describe('in bubblewrap', { skip: BWRAP.kind !== 'bwrap' && 'bubblewrap is not usable here' }, () => {
  test('a sandboxed step neither sees the socket’s folder nor reaches the socket', async () => {
    const sandbox = createCodeSandbox({ isolation: BWRAP });
    try {
      const r = (await sandbox.call(call('reach', { dir: spawner.socketDir, socket: spawner.socketPath }))) as { sees: boolean; connected: unknown };
      assert.equal(r.sees, false);
      assert.equal(r.connected, 'ENOENT');
    } finally {
      await sandbox.close();
    }
  });
});

for (const [label, isolation] of [['unisolated', NONE], ...(BWRAP.kind === 'bwrap' ? [['in bubblewrap', BWRAP] as const] : [])] as const) {
  test(`${label}: a spawner killed mid-step fails that step as sandbox_host_lost, is started again, and the next call works`, async () => {
    const sandbox = createCodeSandbox({ isolation });
    try {
      await sandbox.call(call('echo', { n: 1 })); // warm
      const old = spawner.pid!;
      const restarts = spawner.restarts;
      const started = Date.now();
      const slow = sandbox.call(call('sleep', { ms: 10_000 }));
      await new Promise((r) => setTimeout(r, 300));
      process.kill(old, 'SIGKILL');
      await assert.rejects(slow, (e: Error & { code?: string }) => {
        assert.equal(e.code, 'sandbox_host_lost');
        assert.match(e.message, /spawner process that launches code workers died \(SIGKILL\)/);
        assert.match(e.message, /run again when the run resumes/);
        return true;
      });
      assert.ok(Date.now() - started < 5_000, 'the step failed at once, not at its timeout');
      assert.equal(spawner.restarts, restarts + 1);
      assert.deepEqual(await sandbox.call(call('echo', { n: 2 })), { n: 2 }, 'a fresh worker from the new spawner');
      assert.notEqual(spawner.pid, old);
    } finally {
      await sandbox.close();
    }
  });
}

test('a step launched while a quickly-dead spawner waits to be started again runs on the new one', async () => {
  const sandbox = createCodeSandbox({ isolation: NONE });
  try {
    await sandbox.call(call('echo', { n: 1 }));
    const restarts = spawner.restarts;
    const exited = (pid: number) => new Promise<void>((resolve) => { const t = setInterval(() => { try { process.kill(pid, 0); } catch { clearInterval(t); resolve(); } }, 5); });
    const first = spawner.pid!;
    process.kill(first, 'SIGKILL');
    await exited(first);
    while (spawner.restarts === restarts || spawner.pid === undefined) await new Promise((r) => setTimeout(r, 5));
    // the restarted process dies at once: a quick death, so the next start waits a pause
    const second = spawner.pid!;
    process.kill(second, 'SIGKILL');
    await exited(second);
    while (spawner.restarts === restarts + 1) await new Promise((r) => setTimeout(r, 5));
    assert.equal(spawner.pid, undefined, 'in the pause before the restart');
    assert.deepEqual(await sandbox.call(call('echo', { n: 3 })), { n: 3 }, 'the launch waited for the new spawner');
    assert.ok(spawner.pid && spawner.pid !== second);
  } finally {
    await sandbox.close();
  }
});

/** a Spawner of its own, whose script is a copy this test can remove (as a removed install's is) */
async function spawnerOfCopy(): Promise<{ own: Spawner; script: string; restore(): void }> {
  const original = path.join(path.dirname(new URL(import.meta.url).pathname), 'spawner-process', 'spawner.mjs');
  const script = path.join(dir, `spawner-${Math.random().toString(36).slice(2)}.mjs`);
  const restore = () => copyFileSync(original, script);
  restore();
  const scriptOf = () => {
    if (!existsSync(script)) throw new Error(`the sandbox spawner script was not found (looked in ${script})`);
    return script;
  };
  return { own: await Spawner.start(scriptOf), script, restore };
}
const launchExit = (code: number) => ({ command: process.execPath, args: ['-e', `process.exit(${code})`], env: {}, cwd: dir });
const ended = (child: ReturnType<Spawner['spawn']>) => new Promise<ChildEnd>((resolve) => child.onEnd(resolve));
const gone = (pid: number) => new Promise<void>((resolve) => { const t = setInterval(() => { try { process.kill(pid, 0); } catch { clearInterval(t); resolve(); } }, 2); });

test('a spawner that keeps dying as it starts is started again after a pause that doubles each time', async () => {
  const { own } = await spawnerOfCopy();
  try {
    const gaps: number[] = [];
    for (let i = 0; i < 3; i++) {
      const pid = own.pid!;
      process.kill(pid, 'SIGKILL');
      await gone(pid);
      const t0 = performance.now();
      while (own.pid === undefined || own.pid === pid) await new Promise((r) => setTimeout(r, 2));
      gaps.push(performance.now() - t0);
    }
    // 200, 400 and 800 ms (a timer may fire a little early by its rounding): a fixed 200 ms pause
    // restarted a spawner that cannot live five times a second for as long as the server ran
    assert.ok(gaps[1] >= 380 && gaps[2] >= 780, `pauses before each start: ${gaps.map((g) => g.toFixed(0)).join(', ')} ms`);
    assert.equal((await ended(own.spawn(launchExit(3)))).code, 3, 'the spawner started last launches');
  } finally {
    await own.stop();
  }
});

test('a spawner whose script is gone cannot be started again: each launch ends at once saying why (said once in the log), and runs again once the script is back', async () => {
  const { own, script, restore } = await spawnerOfCopy();
  const logged: string[] = [];
  const error = console.error;
  console.error = (...a: unknown[]) => void logged.push(a.join(' '));
  try {
    assert.equal((await ended(own.spawn(launchExit(0)))).code, 0);
    rmSync(script);
    const pid = own.pid!;
    const restarts = own.restarts;
    process.kill(pid, 'SIGKILL');
    await gone(pid);
    while (own.restarts === restarts) await new Promise((r) => setTimeout(r, 5));
    // the launch made in the pause waits for the start, which fails: it ends, it does not wait for ever
    const first = await ended(own.spawn(launchExit(0)));
    assert.match(first.spawnError ?? '', /could not be started again: the sandbox spawner script was not found/);
    const second = await ended(own.spawn(launchExit(0)));
    assert.equal(second.spawnError, first.spawnError);
    assert.equal(logged.filter((l) => l.includes('could not be started again')).length, 1, logged.join('\n'));
    restore();
    assert.equal((await ended(own.spawn(launchExit(5)))).code, 5, 'the restored script is started');
    assert.ok(own.pid && own.pid !== pid);
  } finally {
    console.error = error;
    await own.stop();
  }
});
