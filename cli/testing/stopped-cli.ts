/**
 * For CLI tests: `stagecraft ARGS…` stopped by `signal` (SIGINT: Ctrl-C; SIGTERM: a cancelled CI job)
 * once `isReady()` holds (polled every 50 ms) — how it ended, and what it said on stdout and stderr.
 */
import { spawn } from 'node:child_process';
import { BIN, ROOT } from './spawn-cli';

export type Stopped = { code: number | null; signal: NodeJS.Signals | null; out: string; err: string };

export function stoppedCli(args: string[], env: NodeJS.ProcessEnv, signal: NodeJS.Signals, isReady: () => boolean): Promise<Stopped> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  const poll = setInterval(() => {
    if (isReady()) {
      clearInterval(poll);
      child.kill(signal);
    }
  }, 50);
  return new Promise((resolve) =>
    child.on('close', (code, sig) => {
      clearInterval(poll);
      resolve({ code, signal: sig, out, err });
    }),
  );
}
