/**
 * One worker child process, seen from the server: start it (forked from here,
 * or by the app's spawner: worker-child.ts, spawner.ts), wait until it is
 * ready, send it one request at a time, enforce the request's timeout, kill it.
 *
 * Owns: the child's lifetime and the wire protocol (newline-delimited JSON,
 * requests on the child's fd 3, replies on its fd 4, so the user's stdout and
 * stderr stay free-form), and reading the user's stdout/stderr per call (which
 * bytes are a call's: call-bounds.ts; what is kept of them and how fast they
 * are read: call-output.ts).
 * Invariants: the child leads its own process group and is always killed as a
 * group (user code may have spawned children of its own); a caller learns a
 * call's outcome only after a killed child has really exited; nothing the
 * child writes — malformed or truncated lines, a value nested too deep, a
 * reply too large, a closed channel — throws in the server: each becomes that
 * call's outcome, and the worker is killed.
 *
 * Does not: queue calls (the caller serialises them; `run` refuses overlap),
 * respawn (sandbox.ts does), or turn outcomes into Stagecraft errors
 * (outcomes.ts does).
 */
import type { Readable, Writable } from 'node:stream';
import { setImmediate as turn } from 'node:timers/promises';
import type { Json } from '../kernel/json';
import { jsonTextDepth, MAX_JSON_DEPTH } from '../kernel/json-depth';
import { drainUnread, streamFd } from './call-bounds';
import { OutputThrottle, StreamKeep } from './call-output';
import { spawnDirect, type WorkerChild, type WorkerLaunch } from './worker-child';

/** A reply larger than this is refused (and its worker killed) rather than buffered in the server. */
export const MAX_REPLY_CHARS = 16 * 1024 * 1024;
/**
 * A reply line longer than this is read in stages with a turn of the event loop between them (its
 * join, its depth check, its parse, its handling): each stage of a line near MAX_REPLY_CHARS holds
 * the loop for 0.1-0.3 s, all of them at once for most of a second, and every request the server
 * serves waits. A shorter line is read at once, as it costs less than a turn.
 */
export const LARGE_REPLY_CHARS = 1024 * 1024;
/** the most stdout and stderr a worker may write between two calls before it is killed (see onOutput) */
export const IDLE_OUTPUT_MAX_BYTES = 1024 * 1024;
/** at most this much is read at once from a stream after a throttled call's reply (more than a pipe or socket buffer holds: a writer that does not stop) */
const DRAIN_MAX_BYTES = 4 * 1024 * 1024;
/** Starting an interpreter (and tsx) must not take longer than this. */
const BOOT_TIMEOUT_MS = 15_000;
/** After a child exits, how long to wait for the rest of its stderr before reporting. */
const DRAIN_AFTER_EXIT_MS = 250;
/** After the reply channel closes, how long the exit of a dying worker may take to be seen. */
const CHANNEL_CLOSE_GRACE_MS = 300;
/** How long `kill` waits for the exit notice of a SIGKILLed child. */
const KILL_WAIT_MS = 2_000;

/** `body`: the request's JSON but its id and opening brace, when the caller made it already (requestLine) */
export type WorkerRequest =
  | { modulePath: string; exportName: string; input: Json; timeoutMs: number; body?: string }
  /** a fused run of pure steps (see handleChain in the workers) */
  | { steps: { modulePath: string; exportName: string; into: string | null }[]; input: Json; timeoutMs: number; body?: string };

/** A reply the worker script sends (see workers/*_worker.*). */
export type WorkerReply =
  | { ok: true; value: Json }
  | {
      ok: false;
      kind: 'raised' | 'import_failed' | 'not_json' | 'module_missing' | 'export_missing' | 'memory';
      errorType?: string;
      message?: string;
      traceback?: string | null;
      where?: string | null;
      available?: string[];
    };

export type OutputTails = { stdout: string; stderr: string };

export type CallOutcome =
  | { kind: 'reply'; reply: WorkerReply; output: OutputTails }
  | { kind: 'timeout'; output: OutputTails }
  /** the reply outgrew MAX_REPLY_CHARS; the worker was killed */
  | { kind: 'too_large'; output: OutputTails }
  /** the worker wrote something that is not a reply (or closed its reply channel); it was killed */
  | { kind: 'protocol'; why: string; output: OutputTails }
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null; output: OutputTails }
  /** what launched the worker (the spawner process) died and took the worker with it: not the code's doing */
  | { kind: 'host_lost'; why: string; output: OutputTails };

export { LAUNCH_DATA_FD, type WorkerLaunch } from './worker-child';

/** The worker could not be started (missing interpreter, crash during boot, boot timeout). */
export class WorkerStartError extends Error {
  constructor(
    message: string,
    readonly output: OutputTails,
  ) {
    super(message);
    this.name = 'WorkerStartError';
  }
}

type Pending = {
  id: number;
  /** once set, the call is claimed: only the path that set it (the timeout, or a reply over the cap) may finish it */
  isClaimed: boolean;
  finish: (outcome: CallOutcome) => void;
};

export class WorkerProcess {
  private readonly child: WorkerChild;
  private requests: Writable | null = null;
  private readonly stdoutKeep = new StreamKeep();
  private readonly stderrKeep = new StreamKeep();
  private readonly throttle = new OutputThrottle();
  /** stdout and stderr: each stream, the descriptor it is read from, its 'data' listener */
  private readonly outputs: { stream: Readable; fd: number; onData: (chunk: Buffer) => void }[] = [];
  /** set while the call's output is not read (the throttle's pause): when reading resumes */
  private resumeTimer: NodeJS.Timeout | null = null;
  private replyChunks: string[] = [];
  private replyChars = 0;
  /** while a large line is read (readLargeLine): what arrived after it, handled once it is read */
  private replyBacklog: string[] | null = null;
  private replyBacklogChars = 0;
  /** the reply channel passed its cap: the worker is being killed, what it writes is dropped */
  private isFlooded = false;
  /** killNow was called: the worker goes, whether or not its exit has been seen yet */
  private isKillSent = false;
  /** bytes of stdout and stderr since the last call ended */
  private idleOutputBytes = 0;
  private nextId = 1;
  private pending: Pending | null = null;
  /** the calls' timeout: one timer, re-armed per call (see armTimeout) */
  private timer: NodeJS.Timeout | null = null;
  private timerMs = 0;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private hostLost: string | null = null;
  private readonly exited: Promise<void>;
  private readonly closed: Promise<void>;
  private onReady: ((error: WorkerStartError | null) => void) | null = null;
  private spawnError: string | null = null;
  /** Resolves once the worker has set its limits and waits for requests; rejects with WorkerStartError. */
  readonly ready: Promise<void>;

  /** Starts the worker (by `launcher`: default, a fork of this process); calls may be sent once `ready` resolves. */
  constructor(launch: WorkerLaunch, launcher: (launch: WorkerLaunch) => WorkerChild = spawnDirect) {
    this.child = launcher(launch);
    this.child.wire({
      // bytes, not text: a chunk is kept by reference or dropped, and decoded only if an outcome asks
      stdout: (stdout) => this.readOutput(stdout, this.stdoutKeep),
      stderr: (stderr) => this.readOutput(stderr, this.stderrKeep),
      channel: (requests, replies) => {
        this.requests = requests;
        for (const stream of [requests, replies]) stream.on('error', () => {}); // EPIPE after a kill
        replies.setEncoding('utf8');
        replies.on('data', (s: string) => this.onReplyData(s));
        // a worker that closes its reply channel but stays alive could never answer (one that is
        // exiting closes it too: its exit, reported as such, is given a moment to arrive first)
        replies.on('end', () => {
          setTimeout(() => {
            if (this.isAlive && (this.pending || this.onReady)) this.breakProtocol('nothing more: it closed its reply channel (fd 4)');
          }, CHANNEL_CLOSE_GRACE_MS).unref();
        });
      },
    });
    this.exited = new Promise((resolve) => {
      this.child.onEnd((end) => {
        this.exitInfo = { code: end.code, signal: end.signal };
        if (end.spawnError) this.spawnError = end.spawnError;
        if (end.hostLost) this.hostLost = end.hostLost;
        resolve();
      });
    });
    // closed = exited and every stream drained; capped, since grandchildren may hold the pipes
    this.closed = new Promise((resolve) => {
      this.child.onClose(() => resolve());
      void this.exited.then(() => setTimeout(resolve, DRAIN_AFTER_EXIT_MS).unref());
    });
    void this.closed.then(() => this.onChildGone());
    this.ready = this.awaitReady();
    this.ready.catch(() => {}); // the owner awaits it; never an unhandled rejection
  }

  private async awaitReady(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const error = await new Promise<WorkerStartError | null>((resolve) => {
      timer = setTimeout(() => {
        resolve(new WorkerStartError(`it did not become ready within ${BOOT_TIMEOUT_MS} ms`, this.takeOutput()));
      }, BOOT_TIMEOUT_MS);
      this.onReady = resolve;
    });
    clearTimeout(timer);
    this.onReady = null;
    // the ready line may outrun the launcher's report of the pid (two channels): kills need the pid
    if (!error) await this.child.spawned;
    if (error) {
      await this.kill();
      throw error;
    }
    this.setRef(false);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get isAlive(): boolean {
    return this.exitInfo === null;
  }

  /**
   * Alive and not being killed: a worker to send a call to. Between a kill sent and its exit seen
   * (a flood past the reply cap between calls, the idle cap) it is alive, but a call sent then would
   * be killed with it — a step failed for nothing it did.
   */
  get isUsable(): boolean {
    return this.exitInfo === null && !this.isKillSent;
  }

  /** Sends one request; the outcome is a reply, a timeout (the worker is then dead) or the worker's exit. */
  run(request: WorkerRequest): Promise<CallOutcome> {
    if (this.pending) throw new Error('WorkerProcess.run called while a call is in flight');
    if (!this.isAlive) {
      if (this.hostLost) return Promise.resolve({ kind: 'host_lost', why: this.hostLost, output: this.takeOutput() });
      return Promise.resolve({ kind: 'exited', ...this.exitInfo!, output: this.takeOutput() });
    }
    this.stdoutKeep.reset();
    this.stderrKeep.reset();
    this.throttle.reset();
    this.idleOutputBytes = 0;
    // no ref of the child's handles per call: the call's timeout timer (ref'd) keeps the event loop alive
    // until the call is finished, and a kill refs them until the exit is seen
    return new Promise<CallOutcome>((resolve) => {
      const pending: Pending = {
        id: this.nextId++,
        isClaimed: false,
        finish: (outcome) => {
          if (this.pending !== pending) return;
          this.pending = null;
          this.timer?.unref(); // armed still, but it finds no call: an idle worker holds nothing
          this.resumeOutput(); // what it writes now is counted against the idle cap
          resolve(outcome);
        },
      };
      this.pending = pending;
      this.armTimeout(request.timeoutMs);
      this.requests!.write(requestLine(pending.id, request));
    });
  }

  /**
   * Arms the call's timeout, `ms` from now, ref'd. A timer made and cleared per call costs a timer list
   * made and dropped per call (the only timer of its duration); so one timer is kept and re-armed
   * (`refresh`) while calls have the same timeout. Between calls it stays armed, unref'd: when it
   * fires it finds no call, and does nothing.
   */
  private armTimeout(ms: number): void {
    if (this.timer && this.timerMs === ms) {
      this.timer.refresh().ref();
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timerMs = ms;
    this.timer = setTimeout(() => this.onTimeout(), ms);
  }

  private onTimeout(): void {
    const pending = this.pending;
    if (!pending || pending.isClaimed) return; // between calls, or the call is being finished by another path
    pending.isClaimed = true;
    // kill first, report after the exit, so "timed out" also means "gone"
    void this.kill().then(() => pending.finish({ kind: 'timeout', output: this.takeOutput() }));
  }

  /** Resolves when the worker's process has exited. */
  get whenExited(): Promise<void> {
    return this.exited;
  }

  /** SIGKILLs the worker's process group and waits (bounded) for the exit notice. */
  async kill(): Promise<void> {
    if (!this.isAlive) return;
    this.setRef(true); // keep the loop alive until the exit notice arrives
    this.killNow();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise((r) => (timer = setTimeout(r, KILL_WAIT_MS)))]);
    clearTimeout(timer);
    this.setRef(false);
  }

  /** Synchronous kill, for `process.on('exit')`. */
  killNow(): void {
    if (!this.isAlive) return;
    this.isKillSent = true;
    this.child.killGroup();
  }

  private onReplyData(chunk: string): void {
    // only the new chunk is scanned for the line end, so a multi-megabyte reply stays linear
    if (this.isFlooded) return; // being killed for a reply past the cap: the rest is never kept
    if (this.replyBacklog) {
      this.replyBacklog.push(chunk);
      this.replyBacklogChars += chunk.length;
      if (this.replyBacklogChars > MAX_REPLY_CHARS) this.onReplyTooLarge();
      return;
    }
    let nl = chunk.indexOf('\n');
    if (nl < 0) {
      this.replyChunks.push(chunk);
      this.replyChars += chunk.length;
      if (this.replyChars > MAX_REPLY_CHARS) this.onReplyTooLarge();
      return;
    }
    while (nl >= 0) {
      const line = this.replyChunks.join('') + chunk.slice(0, nl);
      this.replyChunks = [];
      this.replyChars = 0;
      chunk = chunk.slice(nl + 1);
      if (line.length > LARGE_REPLY_CHARS) {
        // read across turns; what follows it waits its turn, in order
        this.replyBacklog = chunk ? [chunk] : [];
        this.replyBacklogChars = chunk.length;
        void this.readLargeLine(line);
        return;
      }
      if (line.trim()) {
        const message = parseMessage(line);
        if (typeof message === 'string') this.breakProtocol(message);
        else this.onMessage(message);
      }
      nl = chunk.indexOf('\n');
    }
    if (chunk) {
      this.replyChunks.push(chunk);
      this.replyChars = chunk.length;
    }
  }

  /** A line over LARGE_REPLY_CHARS: parsed in stages (parseLargeMessage) and handled, then what arrived meanwhile. */
  private async readLargeLine(line: string): Promise<void> {
    const message = await parseLargeMessage(line);
    if (this.isFlooded) return;
    if (typeof message === 'string') this.breakProtocol(message);
    else this.onMessage(message);
    const backlog = this.replyBacklog ?? [];
    this.replyBacklog = null;
    this.replyBacklogChars = 0;
    while (backlog.length > 0 && !this.replyBacklog && !this.isFlooded) this.onReplyData(backlog.shift()!);
    // another large line among them: the rest follows it
    if (this.replyBacklog) for (const c of backlog) this.onReplyData(c);
  }

  private readOutput(stream: Readable, keep: StreamKeep): void {
    stream.on('error', () => {});
    const onData = (chunk: Buffer): void => {
      keep.add(chunk);
      this.onOutput(chunk.length);
    };
    this.outputs.push({ stream, fd: streamFd(stream), onData });
    stream.on('data', onData);
  }

  /** Reads at once what stdout and stderr hold unread: a throttled call's, after its reply (call-bounds.ts). */
  private drainOutput(): void {
    for (const o of this.outputs) drainUnread(o.stream, o.fd, o.onData, DRAIN_MAX_BYTES);
  }

  /**
   * During a call, output is the step's own: read at full speed up to a point, then throttled
   * (call-output.ts). Output while no call runs comes from what a step left running (a thread, a timer);
   * reading it costs the server's main thread (73% of a core for one writing without end, as long as the
   * worker lives, slowing every run). Past IDLE_OUTPUT_MAX_BYTES the worker goes: the next call starts a
   * fresh one.
   */
  private onOutput(bytes: number): void {
    if (this.pending) {
      const waitMs = this.throttle.onBytes(bytes, performance.now());
      // once the reply is in, what is left is read at once
      if (waitMs > 0 && !this.pending.isClaimed) this.pauseOutput(waitMs);
      return;
    }
    if (this.onReady || !this.isAlive) return;
    this.idleOutputBytes += bytes;
    if (this.idleOutputBytes > IDLE_OUTPUT_MAX_BYTES) void this.kill();
  }

  private pauseOutput(ms: number): void {
    if (this.resumeTimer) return;
    for (const o of this.outputs) o.stream.pause();
    this.resumeTimer = setTimeout(() => this.resumeOutput(), ms);
  }

  private resumeOutput(): void {
    if (!this.resumeTimer) return;
    clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
    for (const o of this.outputs) o.stream.resume();
  }

  /**
   * The reply channel passed MAX_REPLY_CHARS without a line end: the worker goes, and nothing more of
   * what it writes is kept — with a call in flight (that call's failure) or without one: a thread a
   * step left running can write at any time, and between calls nothing else would stop the server
   * buffering it (400 MB a second, until it runs out of memory).
   */
  private onReplyTooLarge(): void {
    this.isFlooded = true;
    this.replyBacklog = null;
    this.replyBacklogChars = 0;
    this.replyChunks = [];
    this.replyChars = 0;
    const pending = this.pending;
    if (pending && !pending.isClaimed) {
      pending.isClaimed = true; // no other path may finish it now
      void this.kill().then(() => pending.finish({ kind: 'too_large', output: this.takeOutput() }));
      return;
    }
    void this.kill(); // between calls: the next call starts a fresh worker
  }

  /** The child wrote something that is not a reply: the call in flight (or the start) fails with why, and the worker goes. */
  private breakProtocol(why: string): void {
    if (this.onReady) {
      const onReady = this.onReady;
      void this.kill().then(() => onReady(new WorkerStartError(`it wrote ${why} on its reply channel before it was ready`, this.takeOutput())));
      return;
    }
    const pending = this.pending;
    if (pending && !pending.isClaimed) {
      pending.isClaimed = true; // no other path may finish it now
      void this.kill().then(() => pending.finish({ kind: 'protocol', why, output: this.takeOutput() }));
      return;
    }
    void this.kill(); // between calls: the next call starts a fresh worker
  }

  private onMessage(message: Message): void {
    if (message.type === 'ready') {
      this.onReady?.(null);
      return;
    }
    const pending = this.pending;
    if (!pending || pending.isClaimed || message.id !== pending.id) return; // too late: the call timed out
    pending.isClaimed = true; // no other path may finish it now
    // a result is its value alone (parseMessage checked it has one): no copy of the message but its id
    const reply = message.ok === true ? ({ ok: true, value: message.value as Json } as const) : replyOf(message);
    // Its output, written before the reply, may be unread yet: a throttled call's pipes are not polled
    // (read now), and the others' are read in this poll, before the loop's check phase (call-bounds.ts).
    if (this.resumeTimer) {
      this.resumeOutput();
      this.drainOutput();
    }
    setImmediate(() => pending.finish({ kind: 'reply', reply, output: this.takeOutput() }));
  }

  private onChildGone(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.resumeOutput();
    const info = this.exitInfo ?? { code: null, signal: null };
    if (this.onReady) {
      const how = this.hostLost
        ? `was lost: ${this.hostLost}`
        : this.spawnError
        ? `could not be spawned (${this.spawnError})`
        : info.signal
          ? `was killed by ${info.signal} before it was ready`
          : `exited with code ${info.code} before it was ready`;
      this.onReady(new WorkerStartError(`it ${how}`, this.takeOutput()));
    }
    const pending = this.pending;
    if (pending && !pending.isClaimed) {
      pending.finish(this.hostLost ? { kind: 'host_lost', why: this.hostLost, output: this.takeOutput() } : { kind: 'exited', ...info, output: this.takeOutput() });
    }
    this.setRef(false);
  }

  private takeOutput(): OutputTails {
    return { stdout: this.stdoutKeep.text(), stderr: this.stderrKeep.text() };
  }

  /** An idle worker must not keep the server's event loop alive (a busy one is kept by its call's timeout timer, a dying one by `kill`). */
  private setRef(isRef: boolean): void {
    this.child.setRef(isRef);
  }
}

/** A request as the worker reads it: its id, and the request but its timeout (the host's to enforce); its body made before its call starts when the caller prepared it. */
function requestLine(id: number, r: WorkerRequest): string {
  return `{"id":${id},${r.body ?? requestBody(r)}\n`;
}

/** The request's JSON but its id and its opening brace (`{"id":…,` goes first: requestLine), made before its call starts if need be. */
export function requestBody(r: WorkerRequest): string {
  const body = 'steps' in r ? { steps: r.steps, input: r.input } : { modulePath: r.modulePath, exportName: r.exportName, input: r.input };
  return JSON.stringify(body).slice(1);
}

/** A failure reply: the message but its id and type. */
function replyOf(message: Message): WorkerReply {
  const { id: _id, type: _type, ...reply } = message as Message & WorkerReply;
  return reply;
}

type Message = { type?: string; id?: number } & Record<string, unknown>;

const REPLY_KINDS = new Set(['raised', 'import_failed', 'not_json', 'module_missing', 'export_missing', 'memory']);

/** A line of the reply channel as a message, or why it is not one (never throws). */
export function parseMessage(line: string): Message | string {
  if (jsonTextDepth(line) > MAX_JSON_DEPTH) return TOO_DEEP;
  return messageOf(line);
}

const TOO_DEEP = `a value nested deeper than ${MAX_JSON_DEPTH} levels`;

/**
 * parseMessage of a long line, its stages in turns of their own: a turn after the line was joined,
 * its depth check, a turn, its parse. Same answers. (The call's timeout may fire in a turn between:
 * a reply that comes at its deadline may be late, as it may be without these turns.)
 */
export async function parseLargeMessage(line: string): Promise<Message | string> {
  await turn();
  if (jsonTextDepth(line) > MAX_JSON_DEPTH) return TOO_DEEP;
  await turn();
  return messageOf(line); // handled in a turn of its own too: onMessage finishes the call in a setImmediate
}

/** parseMessage but its depth check */
function messageOf(line: string): Message | string {
  let m: unknown;
  try {
    m = JSON.parse(line);
  } catch {
    return `a line that is not JSON (${JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line)})`;
  }
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return `a JSON ${m === null ? 'null' : Array.isArray(m) ? 'array' : typeof m} instead of a message object`;
  const o = m as Message;
  if (o.type === 'ready') return o;
  if (typeof o.id !== 'number') return 'a message without a request id';
  if (o.ok === true && 'value' in o) return o;
  if (o.ok === false && typeof o.kind === 'string' && REPLY_KINDS.has(o.kind)) return o;
  return 'a message that is neither a result nor an error';
}
