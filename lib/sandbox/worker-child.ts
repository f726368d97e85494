/**
 * A worker's process as the host holds it, however it was launched: its pid,
 * its streams (stdout, stderr, and the protocol channel: requests to its fd 3,
 * replies from its fd 4), its end, a kill of its process group, and whether
 * it keeps the event loop alive.
 *
 * `spawnDirect` forks it from this process (the CLI, tests, benchmarks: small
 * processes); spawner.ts launches it through the spawner process (the app's
 * server, which must never fork: see spawner.ts). worker.ts speaks the
 * protocol over either without knowing which.
 *
 * Owns: the launch of one child from this process and the launch's fd 5 data.
 * Does not: speak the protocol (worker.ts) or choose the launcher (spawner.ts).
 */
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

export type WorkerLaunch = {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** bytes the launcher reads from fd 5 at start (bubblewrap's `--seccomp 5`); the pipe is closed after them */
  fd5?: Buffer;
};

/** the descriptor `WorkerLaunch.fd5` arrives on */
export const LAUNCH_DATA_FD = 5;

/** How a child ended. `spawnError`: it could not be started; `hostLost`: what launched it died, taking it along. */
export type ChildEnd = { code: number | null; signal: NodeJS.Signals | null; spawnError?: string; hostLost?: string };

export type StreamHandlers = {
  stdout(stream: Readable): void;
  stderr(stream: Readable): void;
  /** the protocol channel: requests are written to `requests`, replies read from `replies` (one socket, or two pipes) */
  channel(requests: Writable, replies: Readable): void;
};

export interface WorkerChild {
  /** undefined until the launcher reports it (or forever, when the spawn failed) */
  readonly pid: number | undefined;
  /** resolves once the pid is known or the child has ended */
  readonly spawned: Promise<void>;
  /** hands each stream to its handler once it exists (at once for a direct spawn) */
  wire(handlers: StreamHandlers): void;
  /** called once, when the child has exited (or could not be started) */
  onEnd(cb: (end: ChildEnd) => void): void;
  /** called once, when the child has ended and its streams are drained */
  onClose(cb: () => void): void;
  /** SIGKILLs the child's process group (at once, or as soon as its pid is known) */
  killGroup(): void;
  /** whether the child and its streams keep the event loop alive */
  setRef(isRef: boolean): void;
}

/** Kills a process group; quiet when it is gone. */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

/** Forks the worker from this process (a fork of a big process blocks its event loop: the app uses the spawner). */
export function spawnDirect(launch: WorkerLaunch): WorkerChild {
  const child = spawn(launch.command, launch.args, {
    cwd: launch.cwd,
    env: launch.env as NodeJS.ProcessEnv,
    // own process group, so a timeout can kill whatever the user's code spawned too
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', ...(launch.fd5 ? (['pipe'] as const) : [])],
  });
  if (launch.fd5) {
    const data = (child.stdio as unknown as Writable[])[LAUNCH_DATA_FD];
    data.on('error', () => {}); // a launcher that died before reading it
    data.end(launch.fd5);
  }
  const [, stdout, stderr, requests, replies] = child.stdio as [null, Readable, Readable, Writable, Readable];
  return {
    get pid() {
      return child.pid;
    },
    spawned: Promise.resolve(),
    wire(h) {
      h.stdout(stdout);
      h.stderr(stderr);
      h.channel(requests, replies);
    },
    onEnd(cb) {
      let isEnded = false;
      child.once('exit', (code, signal) => !isEnded && ((isEnded = true), cb({ code, signal })));
      // spawn failed (ENOENT): no exit event follows
      child.once('error', (err) => !isEnded && ((isEnded = true), cb({ code: null, signal: null, spawnError: err.message })));
    },
    onClose(cb) {
      child.once('close', () => cb());
    },
    killGroup() {
      if (child.exitCode === null && child.signalCode === null) killGroup(child.pid);
    },
    setRef(isRef) {
      const handles = [child, ...child.stdio] as ({ ref?: () => void; unref?: () => void; destroyed?: boolean } | null)[];
      // a closed pipe (fd 5 once its bytes are written) has no handle: unref would wait for a 'connect' that never comes
      for (const h of handles) if (!h?.destroyed) (isRef ? h?.ref : h?.unref)?.call(h);
    },
  };
}
