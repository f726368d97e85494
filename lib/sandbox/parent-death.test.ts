// A node worker busy in a call (its event loop blocked, so it cannot see its request pipe close)
// dies with its server: in bubblewrap by the launcher (--die-with-parent and the pid namespace), so
// the worker is told it need not watch for that itself (`--dies-with-parent`: no watching thread, a
// second node environment, booted in each worker); unisolated by its own watching thread.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isolationFor } from './isolation';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'busy-server.ts');
const hasBwrap = isolationFor('auto').kind === 'bwrap';

/** alive and not a zombie (an orphan's zombie waits for whoever reaps it here) */
function isLive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitUntilGone(pids: number[], withinMs: number): Promise<number[]> {
  const until = Date.now() + withinMs;
  for (;;) {
    const live = pids.filter(isLive);
    if (!live.length || Date.now() > until) return live;
    await new Promise((r) => setTimeout(r, 25));
  }
}

for (const [mode, sandboxEnv] of [
  ['unisolated', 'off'],
  ['in bubblewrap', 'required'],
] as const) {
  test(`a node worker busy in a call dies with its server (${mode})`, { skip: sandboxEnv === 'required' && !hasBwrap && 'no bubblewrap here' }, async () => {
    const server = spawn(process.execPath, ['--import', 'tsx', SERVER], { env: { ...process.env, STAGECRAFT_SANDBOX: sandboxEnv }, stdio: ['ignore', 'pipe', 'inherit'] });
    let pids: number[] = [];
    try {
      let out = '';
      server.stdout.setEncoding('utf8');
      await new Promise<void>((resolve, reject) => {
        server.stdout.on('data', (s: string) => ((out += s), out.includes('\n') && resolve()));
        server.once('exit', (code) => reject(new Error(`the server exited (${code}) before its worker was busy`)));
      });
      const told = JSON.parse(out) as { args: string[]; pids: number[] };
      const args = told.args;
      pids = told.pids;
      assert.equal(args.includes('--dies-with-parent'), sandboxEnv === 'required', 'told it dies with its parent only where the launcher sees to it');
      assert.ok(pids.length > 0);
      server.kill('SIGKILL');
      assert.deepEqual(await waitUntilGone(pids, 5_000), [], 'a process of the worker outlived its server');
    } finally {
      server.kill('SIGKILL');
      for (const pid of pids.filter(isLive)) process.kill(pid, 'SIGKILL'); // what a failure left
    }
  });
}
