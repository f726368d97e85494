/**
 * The spawner: how the app's server starts sandbox workers without forking.
 *
 * Why: on Linux, libuv starts a child by fork()ing the parent, and forking
 * the app's server (hundreds of MB, its page tables copied) blocks its event
 * loop for tens of milliseconds per worker — under many runs, every request
 * waits behind those forks. So the server starts one small node process at
 * boot, while it is still small (spawner-process/spawner.mjs), and asks it to spawn
 * each worker; the server itself never forks again (unless the spawner dies:
 * it is restarted, one fork).
 *
 * How a worker's streams reach the server: the server listens on a unix
 * socket in a fresh private folder (mode 0700, under the system temp folder —
 * a sandbox gets its own empty /tmp, and a launch that would bind the folder
 * into a sandbox is refused here: `reachableFrom`). For each spawn it makes a
 * random token; the spawner opens four connections to that socket, writes the
 * token and a role on each (stdout, stderr, requests, replies), and hands
 * them to the child as its fds 1 to 4. A connection whose first bytes
 * are not a pending spawn's token and an unused role is closed: a process
 * that reaches the socket cannot pose as another worker. After that, the
 * worker's bytes go straight to the server — nothing relays them, so a warm
 * call costs what it did with pipes. The spawner reports each child's pid and
 * exit over its IPC channel; the server kills workers (their process groups)
 * itself, by pid.
 *
 * If the spawner dies, every worker it launched dies with it (bubblewrap's
 * --die-with-parent; an unsandboxed worker is killed by the server, and
 * watches its parent itself); calls in flight end as `host_lost`
 * (outcomes.ts: a SandboxHostLostError, which leaves the run resumable), and
 * the server starts a new spawner at once. If the server dies, the spawner
 * sees its channel close, kills every worker's group, and exits.
 *
 * A spawner that keeps dying as it starts is started again after a pause that doubles each time
 * (QUICK_DEATH_MS, RESTART_PAUSE_MS up to MAX_RESTART_PAUSE_MS), never in a tight loop. One that
 * cannot be started at all (its script gone: the install replaced or removed under a running
 * server) is said once in the log, and each launch then ends at once with that reason (and tries
 * once more: a restored install is used again) — none waits for ever.
 *
 * Owns: the spawner process, the socket, the tokens, and the process-wide
 * choice of launcher (`activeSpawner`: the app starts one at boot; the CLI,
 * tests and benchmarks spawn directly — they are small processes). Does not:
 * build launch command lines (sandbox.ts, isolation.ts) or speak the worker
 * protocol (worker.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { killGroup, type ChildEnd, type StreamHandlers, type WorkerChild, type WorkerLaunch } from './worker-child';

/** stdout, stderr, requests (the worker's fd 3), replies (its fd 4): four connections, so that closing one
 *  descriptor in the worker is seen as it is with pipes (a worker that closes fd 4 has closed its replies) */
type Role = 'o' | 'e' | 'i' | 'r';
const ROLES: readonly Role[] = ['o', 'e', 'i', 'r'];
const TOKEN_CHARS = 32;
const HEADER_BYTES = TOKEN_CHARS + 1;
/** a connection that has not said who it is by then is closed */
const HELLO_TIMEOUT_MS = 10_000;
/** a spawner that died sooner than this after its start is restarted after a pause (not in a tight loop) */
const QUICK_DEATH_MS = 1_000;
const RESTART_PAUSE_MS = 200;
/** the longest pause between starts of a spawner that keeps dying as it starts (each quick death doubles it) */
const MAX_RESTART_PAUSE_MS = 30_000;

/** a launch sent to the spawner process (or held for it while it is started again) */
type SpawnMessage = { t: 'spawn'; id: number; token: string; command: string; args: string[]; env: Record<string, string>; cwd: string; fd5?: string };

type FromSpawner =
  | { t: 'up'; pid: number }
  | { t: 'spawned'; id: number; pid: number }
  | { t: 'error'; id: number; message: string }
  | { t: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null };

/** A worker launched by the spawner: its streams arrive as connections to the server's socket. */
class RemoteChild implements WorkerChild {
  pid: number | undefined;
  readonly spawned: Promise<void>;
  private resolveSpawned!: () => void;
  private readonly sockets = new Map<Role, net.Socket>();
  private readonly closedSockets = new Set<Role>();
  private handlers: StreamHandlers | null = null;
  private end: ChildEnd | null = null;
  private readonly endCallbacks: ((end: ChildEnd) => void)[] = [];
  private readonly closeCallbacks: (() => void)[] = [];
  private isClosed = false;
  private isRef = true;
  private isKillWanted = false;

  /** `hold(true)`: this child needs the spawner's reports (its pid, its exit) to keep the event loop alive */
  constructor(
    readonly token: string,
    private readonly hold: (isHeld: boolean) => void,
  ) {
    this.spawned = new Promise((resolve) => (this.resolveSpawned = resolve));
    hold(true);
  }

  attach(role: Role, socket: net.Socket): void {
    this.sockets.set(role, socket);
    socket.on('error', () => {});
    socket.once('close', () => {
      this.closedSockets.add(role);
      this.maybeClose();
    });
    if (this.isRef) socket.ref();
    else socket.unref();
    if (this.handlers) this.wireOne(role, socket);
  }

  wire(handlers: StreamHandlers): void {
    this.handlers = handlers;
    for (const [role, socket] of this.sockets) this.wireOne(role, socket);
  }

  private wireOne(role: Role, socket: net.Socket): void {
    const h = this.handlers!;
    if (role === 'o') h.stdout(socket);
    else if (role === 'e') h.stderr(socket);
    else {
      // the channel once both its halves are here
      const requests = this.sockets.get('i');
      const replies = this.sockets.get('r');
      if (!requests || !replies) return;
      h.channel(requests, replies as Readable);
      requests.resume();
    }
    socket.resume();
  }

  onSpawned(pid: number): void {
    this.pid = pid;
    this.resolveSpawned();
    if (this.isKillWanted) killGroup(pid);
  }

  finish(end: ChildEnd): void {
    if (this.end) return;
    this.end = end;
    if (this.isRef) this.hold(false);
    this.resolveSpawned();
    for (const cb of this.endCallbacks.splice(0)) cb(end);
    this.maybeClose();
  }

  onEnd(cb: (end: ChildEnd) => void): void {
    if (this.end) cb(this.end);
    else this.endCallbacks.push(cb);
  }

  onClose(cb: () => void): void {
    if (this.isClosed) cb();
    else this.closeCallbacks.push(cb);
  }

  private maybeClose(): void {
    if (this.isClosed || !this.end || this.closedSockets.size < ROLES.length) return;
    this.isClosed = true;
    for (const cb of this.closeCallbacks.splice(0)) cb();
  }

  killGroup(): void {
    if (this.end) return;
    if (this.pid === undefined) this.isKillWanted = true;
    else killGroup(this.pid);
  }

  setRef(isRef: boolean): void {
    if (isRef !== this.isRef && !this.end) this.hold(isRef);
    this.isRef = isRef;
    for (const socket of this.sockets.values()) {
      if (socket.destroyed) continue;
      if (isRef) socket.ref();
      else socket.unref();
    }
  }

  /** the spawner died: the worker goes too (an unsandboxed one would not notice at once) */
  lose(why: string): void {
    if (this.end) return;
    if (this.pid !== undefined) killGroup(this.pid);
    for (const socket of this.sockets.values()) socket.destroy();
    this.finish({ code: null, signal: null, hostLost: why });
  }

  /** roles not yet connected: the spawner can no longer connect them */
  dropUnconnected(): void {
    for (const role of ROLES) if (!this.sockets.has(role)) this.closedSockets.add(role);
    this.maybeClose();
  }
}

export class Spawner {
  private proc: ChildProcess | null = null;
  private startedAt = 0;
  private readonly byId = new Map<number, RemoteChild>();
  private readonly byToken = new Map<string, { child: RemoteChild; roles: Set<Role> }>();
  private nextId = 1;
  private holds = 0;
  private isStopped = false;
  /** connections closed because their token or role was not one pending (tests read it) */
  refusedConnections = 0;
  /** how many times the spawner process was started again after it died */
  restarts = 0;
  /** launches asked for while the process was being started again: sent when it is */
  private queued: SpawnMessage[] = [];
  /** the pause before a start again (unref'd: it keeps the process alive only once a launch waits for it) */
  private restartTimer: NodeJS.Timeout | null = null;
  /** quick deaths in a row (each doubles the pause before the next start) */
  private quickDeaths = 0;
  /** why the last start failed (said once in the log while it stays the same) */
  private startFailure: string | null = null;

  private constructor(
    private readonly server: net.Server,
    private readonly dir: string,
    readonly socketPath: string,
    private readonly scriptOf: () => string,
  ) {
    server.on('connection', (socket) => this.onConnection(socket));
  }

  /** Listens on a fresh socket and starts the spawner process (`scriptOf`: its script's path; tests give a copy). */
  static async start(scriptOf: () => string = spawnerScript): Promise<Spawner> {
    const dir = mkdtempSync(path.join(os.tmpdir(), `stagecraft-spawner-${process.pid}-`)); // mode 0700
    const socketPath = path.join(dir, 's');
    const server = net.createServer({ pauseOnConnect: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    server.unref();
    const spawner = new Spawner(server, dir, socketPath, scriptOf);
    try {
      spawner.startProcess();
    } catch (e) {
      server.close();
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
    return spawner;
  }

  /** the spawner process's pid (tests kill it) */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** The folder holding the socket: a sandbox must not see it. */
  get socketDir(): string {
    return this.dir;
  }

  /** Whether a folder bound into a sandbox would show the socket (it is, or holds, the socket's folder). */
  reachableFrom(boundPaths: string[]): boolean {
    return boundPaths.some((p) => {
      const rel = path.relative(path.resolve(p), this.dir);
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    });
  }

  /** Launches one worker through the spawner. */
  spawn(launch: WorkerLaunch): WorkerChild {
    const token = randomBytes(TOKEN_CHARS / 2).toString('hex');
    const child = new RemoteChild(token, (isHeld) => this.hold(isHeld));
    const id = this.nextId++;
    if (this.isStopped || (this.proc && !this.proc.connected)) {
      child.finish({ code: null, signal: null, spawnError: 'the spawner process is not running' });
      return child;
    }
    this.byId.set(id, child);
    this.byToken.set(token, { child, roles: new Set() });
    const message: SpawnMessage = { t: 'spawn', id, token, command: launch.command, args: launch.args, env: launch.env, cwd: launch.cwd, ...(launch.fd5 ? { fd5: launch.fd5.toString('base64') } : {}) };
    // between a death and its restart (a short pause after a quick death) the launch waits for the new process
    if (this.proc) this.proc.send(message);
    else {
      this.queued.push(message);
      // a launch waits for the start to come; when none is coming (the last one failed) it tries once,
      // and ends at once if that fails too
      if (this.restartTimer) this.restartTimer.ref();
      else this.startAgain();
    }
    return child;
  }

  /** Stops the spawner (its workers with it) and removes the socket. */
  async stop(): Promise<void> {
    this.isStopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const proc = this.proc;
    for (const child of this.byId.values()) child.lose('the spawner was stopped');
    this.byId.clear();
    this.byToken.clear();
    this.queued = [];
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.ref(); // until its exit is seen
      proc.kill('SIGKILL');
      await exited;
    }
    this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The spawner's channel keeps the event loop alive while a child waits on its reports (counted). */
  private hold(isHeld: boolean): void {
    this.holds += isHeld ? 1 : -1;
    this.applyHolds();
  }

  private applyHolds(): void {
    const channel = this.proc?.channel as unknown as { ref?: () => void; unref?: () => void } | undefined;
    if (this.holds > 0) channel?.ref?.();
    else channel?.unref?.();
  }

  private startProcess(): void {
    this.startedAt = Date.now();
    // no environment: the spawner gives each worker exactly the one its launch names
    const proc = spawn(process.execPath, [this.scriptOf(), this.socketPath], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: {} as NodeJS.ProcessEnv });
    this.proc = proc;
    proc.on('message', (m: FromSpawner) => this.onMessage(m));
    proc.on('error', () => {}); // reported by its exit
    proc.once('exit', (code, signal) => this.onProcessExit(proc, code, signal));
    // an idle server must be able to exit: the spawner is not a reason to stay (its channel is, while a child waits on it)
    proc.unref();
    this.applyHolds();
    for (const message of this.queued.splice(0)) proc.send(message);
  }

  private onProcessExit(proc: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.proc !== proc) return;
    this.proc = null;
    if (this.isStopped) return;
    const why = `the spawner process that launches code workers died (${signal ?? `exit code ${code}`}) and took this worker with it`;
    for (const child of this.byId.values()) child.lose(why);
    this.byId.clear();
    this.byToken.clear();
    this.restarts++;
    this.quickDeaths = Date.now() - this.startedAt < QUICK_DEATH_MS ? this.quickDeaths + 1 : 0;
    const pause = this.quickDeaths ? Math.min(RESTART_PAUSE_MS * 2 ** (this.quickDeaths - 1), MAX_RESTART_PAUSE_MS) : 0;
    if (!pause) {
      this.startAgain();
      return;
    }
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.startAgain();
    }, pause).unref();
  }

  /**
   * Starts the process again, unless stopped or already running. When it cannot be started, the
   * launches waiting for it end with why (said once in the log while the reason stays the same).
   */
  private startAgain(): void {
    if (this.isStopped || this.proc) return;
    try {
      this.startProcess();
      this.startFailure = null;
    } catch (e) {
      const why = `the spawner process that launches code workers could not be started again: ${e instanceof Error ? e.message : String(e)}`;
      if (why !== this.startFailure) console.error(`stagecraft: ${why}`);
      this.startFailure = why;
      for (const m of this.queued.splice(0)) {
        const child = this.byId.get(m.id);
        this.byId.delete(m.id);
        this.byToken.delete(m.token);
        child?.finish({ code: null, signal: null, spawnError: why });
      }
    }
  }

  private onMessage(m: FromSpawner): void {
    if (m.t === 'up') return;
    const child = this.byId.get(m.id);
    if (!child) return;
    if (m.t === 'spawned') child.onSpawned(m.pid);
    else {
      this.byId.delete(m.id);
      // its connections may still wait to be accepted (a worker that failed at once has stderr to tell)
      setTimeout(() => this.byToken.delete(child.token), HELLO_TIMEOUT_MS).unref();
      child.finish(m.t === 'exit' ? { code: m.code, signal: m.signal } : { code: null, signal: null, spawnError: m.message });
      // a spawn that failed before its connections were made never gets them
      if (m.t === 'error') child.dropUnconnected();
    }
  }

  private onConnection(socket: net.Socket): void {
    socket.on('error', () => {});
    socket.unref();
    const timer = setTimeout(() => this.refuse(socket), HELLO_TIMEOUT_MS).unref();
    const read = () => {
      const head = socket.read(HEADER_BYTES) as Buffer | null;
      if (!head) return;
      socket.off('readable', read);
      clearTimeout(timer);
      const text = head.toString('latin1');
      const entry = this.byToken.get(text.slice(0, TOKEN_CHARS));
      const role = text.slice(TOKEN_CHARS) as Role;
      if (!entry || !ROLES.includes(role) || entry.roles.has(role)) {
        this.refuse(socket);
        return;
      }
      entry.roles.add(role);
      if (entry.roles.size === ROLES.length) this.byToken.delete(entry.child.token);
      socket.pause();
      entry.child.attach(role, socket);
    };
    socket.on('readable', read);
    socket.once('end', () => clearTimeout(timer));
  }

  private refuse(socket: net.Socket): void {
    this.refusedConnections++;
    socket.destroy();
  }
}

/** The spawner script, shipped next to this module (or under the project's checkout, once bundled). */
function spawnerScript(): string {
  const candidates: string[] = [];
  try {
    candidates.push(fileURLToPath(new URL('./spawner-process/spawner.mjs', import.meta.url)));
  } catch {
    // import.meta.url is not a file URL under some bundlers
  }
  candidates.push(path.join(process.cwd(), 'lib', 'sandbox', 'spawner-process', 'spawner.mjs'));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`the sandbox spawner script was not found (looked in ${candidates.join(', ')})`);
  return found;
}

const GLOBAL_KEY = Symbol.for('stagecraft.sandboxSpawner');
type Holder = { [GLOBAL_KEY]?: { spawner: Spawner | null; starting: Promise<Spawner> } };

/**
 * Starts this process's spawner (once): from then on every sandbox of this process launches its
 * workers through it. Kept on globalThis: Next bundles the start-up hook and the routes apart.
 */
export function startSpawner(): Promise<Spawner> {
  const g = globalThis as Holder;
  const existing = g[GLOBAL_KEY];
  if (existing) return existing.starting;
  const holder: { spawner: Spawner | null; starting: Promise<Spawner> } = { spawner: null, starting: Spawner.start() };
  g[GLOBAL_KEY] = holder;
  holder.starting.then(
    (s) => (holder.spawner = s),
    () => delete g[GLOBAL_KEY],
  );
  return holder.starting;
}

/** This process's spawner once started; null: workers are spawned directly. */
export function activeSpawner(): Spawner | null {
  return (globalThis as Holder)[GLOBAL_KEY]?.spawner ?? null;
}

/** Stops this process's spawner (tests); later sandboxes spawn directly. */
export async function stopSpawner(): Promise<void> {
  const g = globalThis as Holder;
  const holder = g[GLOBAL_KEY];
  delete g[GLOBAL_KEY];
  await (await holder?.starting.catch(() => null))?.stop();
}
