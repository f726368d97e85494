/**
 * Runs store-child.ts in another process and reads its JSON lines: how tests
 * put a second process on a data dir or a run claim.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'store-child.ts');

export type Child = {
  proc: ChildProcess;
  /** the next JSON line the child prints */
  next(): Promise<Record<string, unknown>>;
  /** SIGKILL, and wait until it is gone */
  kill(): Promise<void>;
  exited: Promise<number | null>;
};

export function startChild(args: string[], env: Record<string, string | undefined> = {}): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const lines: string[] = [];
  const waiters: ((l: string | null) => void)[] = [];
  const rl = createInterface({ input: proc.stdout! });
  rl.on('line', (l) => (waiters.length ? waiters.shift()!(l) : lines.push(l)));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  let closed = false;
  rl.on('close', () => {
    closed = true; // stdout fully read: no more lines will come
    for (const w of waiters.splice(0)) w(null);
  });
  return {
    proc,
    exited,
    next: async () => {
      const line = lines.length
        ? lines.shift()!
        : closed
          ? null
          : await new Promise<string | null>((r) => waiters.push(r));
      if (line === null) throw new Error(`child exited without output; stderr:\n${stderr}`);
      return JSON.parse(line) as Record<string, unknown>;
    },
    kill: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
  };
}
