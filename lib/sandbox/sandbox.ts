/**
 * `createCodeSandbox`: the kernel's `CodeSandbox` port, running python and node
 * code steps in warm child processes.
 *
 * Owns: which worker runs a call (lanes of at most `maxWorkersPerLanguage`
 * workers per flavour, each lane a FIFO so one worker runs one call at a time),
 * lazy spawning and transparent respawning after a timeout, crash or memory
 * blow-up, and the cleanup of every process and temp dir on `close()` or when
 * the server exits. Invariant: a sandbox never leaves processes behind, and
 * an idle sandbox does not keep the server's event loop alive. A call's
 * timeout runs from when its worker receives it (time queued behind other
 * calls, waiting for a worker slot, or spent starting the interpreter does not
 * count; importing the user's module on first use does).
 *
 * Isolation (isolation.ts): with bubblewrap, each worker runs in a sandbox of
 * its own — no network, its own pid and mount namespaces, the bundle version
 * and the system runtime read-only, the run's working folder writable (its
 * `.git` read-only), small private /tmp and /dev/shm, a seccomp filter,
 * nothing else of the machine. Without it (STAGECRAFT_SANDBOX=off, or no
 * bubblewrap here) a worker is a separate process with limits and a clean
 * environment, not a container. Either way: every worker holds a slot of the
 * process-wide cap (worker-slots.ts); where cgroups can be made (cgroups.ts) a
 * worker and all it forks are capped at `maxProcesses` tasks and
 * `memoryLimitMb` of memory, tmpfs pages included; when a call ends, whatever
 * it started is killed (sandbox-worker.ts); and the working folder's quota and
 * `.git` are checked around each call (workspace-guard.ts).
 *
 * Workers are launched by this process's spawner when it has one (the app's
 * server starts one at boot, so it never forks: spawner.ts), else forked from
 * here (the CLI, tests); the walls are the same either way.
 *
 * What persists in a warm worker from one call to the next is the worker
 * process itself: the modules it imported, their globals, threads they
 * started, and its /tmp and /dev/shm — until the worker is replaced (after a
 * timeout, a crash, a memory or quota failure, or when the cap needs its slot
 * while it is idle).
 *
 * Does not: enforce a step's `pure` or `on_error` semantics, or resolve module
 * paths relative to a bundle (callers pass absolute paths).
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CodeStepError, UsageError } from '../kernel/errors';
import type { Json } from '../kernel/json';
import { SignalSets } from '../kernel/signal-sets';
import type { CallOptions, CodeCall, CodeSandbox, CodeWarmUp, PreparedCall } from '../kernel/ports';
import { DEFAULT_MAX_PROCESSES } from './cgroups';
import { bwrapArgs, DEFAULT_TMP_BYTES, isolationFor, sandboxMode, type Isolation } from './isolation';
import { isWorkerSpent, resultOf, type CallContext } from './outcomes';
import { killLeftBy } from './left-processes';
import { isProcessAlive } from './processes';
import { flavourFor, launchCommand, runtimeFiles, workerEnv, type Flavour } from './runtime';
import { SandboxWorker } from './sandbox-worker';
import { activeSpawner } from './spawner';
import { spawnDirect, type WorkerChild } from './worker-child';
import { LAUNCH_DATA_FD, requestBody, WorkerStartError, type WorkerLaunch, type WorkerRequest } from './worker';
import { sharedWorkerSlots, type WorkerSlots } from './worker-slots';
import { WorkspaceGuard } from './workspace-guard';
import type { WorkspaceQuota } from './workspace-usage';

export type CodeSandboxOptions = {
  /** per worker: RLIMIT_AS for python, RLIMIT_DATA for node (what it maps, Buffers included), and its memory cgroup (its whole tree, tmpfs included) */
  memoryLimitMb?: number;
  /** warm workers per flavour (python, node, node+tsx) that calls may run on in parallel */
  maxWorkersPerLanguage?: number;
  /** the bundle the code comes from (read-only in the sandbox); default: the folder of each worker's first module */
  bundleDir?: string;
  /** the run's working folder: the workers' current directory, the one place they may write; default: the module's
   *  folder as the current directory, and nowhere writable (under bwrap that folder is the read-only bundle) */
  workDir?: string;
  /** the working folder's quota, checked around each call; null or absent: none (a folder the user named) */
  workspaceQuota?: WorkspaceQuota | null;
  /** a file out of code's reach where the working folder's own `.git` entries are recorded for the executions
   *  that follow (resume): absent, each execution takes what it finds for the folder's own (workspace-guard.ts) */
  gitBaselineFile?: string;
  /** the working folder is one Stagecraft made (not one the user named): no `.git` in it is its own, so one found
   *  with no baseline record (a workspace from before records were kept) is renamed before the first step */
  isMadeWorkspace?: boolean;
  /** default: STAGECRAFT_SANDBOX of this process (auto) */
  isolation?: Isolation;
  /** per worker: processes + threads at once (a pids cgroup, where one can be made here) */
  maxProcesses?: number;
  /** size of a bubblewrap worker's /tmp, in bytes (default 64 MiB) */
  tmpBytes?: number;
  /** the cap on live workers these calls count against (default: the one this process shares, STAGECRAFT_MAX_WORKERS) */
  slots?: WorkerSlots;
};

export const DEFAULT_MEMORY_LIMIT_MB = 512;
export const DEFAULT_MAX_WORKERS_PER_LANGUAGE = 1;

/**
 * `signal`: the run was asked to abort: a queued job is dropped, a running one's worker killed
 * (`lane`: the lane it was pushed to, which does either)
 */
type Job = {
  call: CodeCall;
  /** what the worker is sent, made when the call was (prepare) */
  request: WorkerRequest;
  ctx: CallContext;
  resolve: (v: Json) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  lane?: { cancel(job: Job): void };
  /** the prepared call it started: told what the call printed, when it returns a value (PreparedCall.printed) */
  prepared: PreparedCall;
};

/** The calls in flight of each abort signal (a run's), cancelled in the order they were made (signal-sets.ts). */
const SIGNAL_JOBS = new SignalSets<Job>((job) => job.lane?.cancel(job));

/** A job's answer: off its signal's list first (nothing left to cancel). */
function settleJob(job: Job, ok: boolean, v: unknown): void {
  if (job.signal) SIGNAL_JOBS.delete(job.signal, job);
  if (ok) job.resolve(v as Json);
  else job.reject(v);
}

type SandboxInternals = { killNow(): void };

/** Live sandboxes, so one `exit` hook can kill every worker even if `close()` was never called. */
const liveSandboxes = new Set<SandboxInternals>();
let isExitHookInstalled = false;

function ensureExitHook(): void {
  if (isExitHookInstalled) return;
  isExitHookInstalled = true;
  process.on('exit', () => {
    for (const sandbox of liveSandboxes) sandbox.killNow();
  });
}

export function createCodeSandbox(opts: CodeSandboxOptions = {}): CodeSandbox {
  const memoryLimitMb = opts.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB;
  const maxWorkers = opts.maxWorkersPerLanguage ?? DEFAULT_MAX_WORKERS_PER_LANGUAGE;
  const maxProcesses = opts.maxProcesses ?? DEFAULT_MAX_PROCESSES;
  const tmpBytes = opts.tmpBytes ?? DEFAULT_TMP_BYTES;
  if (!Number.isInteger(maxProcesses) || maxProcesses < 16) {
    throw new UsageError(`maxProcesses must be an integer ≥ 16, got ${maxProcesses}`);
  }
  if (!Number.isInteger(memoryLimitMb) || memoryLimitMb < 16) {
    throw new UsageError(`memoryLimitMb must be an integer ≥ 16, got ${memoryLimitMb}`);
  }
  if (!Number.isInteger(maxWorkers) || maxWorkers < 1) {
    throw new UsageError(`maxWorkersPerLanguage must be an integer ≥ 1, got ${maxWorkers}`);
  }

  const isolation = opts.isolation ?? isolationFor(sandboxMode(process.env));
  const slots = opts.slots ?? sharedWorkerSlots();
  const guard = opts.workDir ? new WorkspaceGuard(opts.workDir, opts.workspaceQuota ?? null, opts.gitBaselineFile, opts.isMadeWorkspace) : null;
  const lanes = new Map<Flavour, Lane[]>();
  let homeDir: string | null = null;
  let isClosed = false;
  /** every worker of this sandbox until its cgroup and slot are released */
  const workers = new Set<SandboxWorker>();

  const internals: SandboxInternals = {
    killNow() {
      for (const worker of workers) worker.killNow();
      if (homeDir) killLeftBy(homeDir);
      if (homeDir) rmSync(homeDir, { recursive: true, force: true });
    },
  };

  /** HOME for unisolated workers: a fresh empty directory per sandbox, never the server's (a sandboxed one has its own /tmp). */
  function home(): string {
    if (!homeDir) {
      if (!isSwept) {
        isSwept = true;
        sweepAbandonedHomes(os.tmpdir());
      }
      homeDir = mkdtempSync(path.join(os.tmpdir(), `${HOME_PREFIX}${process.pid}-`));
    }
    return homeDir;
  }

  class Lane {
    worker: SandboxWorker | null = null;
    private readonly queue: Job[] = [];
    private isBusy = false;
    /** the job on the worker now */
    private current: Job | null = null;
    /** a worker started ahead of its first call (`warm`), until it is up */
    private starting: Promise<void> | null = null;
    /** while the worker is idle between calls: takes it off the list of workers the cap may stop */
    private unmarkIdle: (() => void) | null = null;
    /** the worker `unmarkIdle` is for (one reaction to its end per worker, not one per idle spell: those would pile up on a warm worker) */
    private idleWorker: SandboxWorker | null = null;

    constructor(private readonly flavour: Flavour) {}

    get load(): number {
      return this.queue.length + (this.isBusy ? 1 : 0);
    }

    push(job: Job): void {
      this.queue.push(job);
      void this.pump();
    }

    /** The job's run was asked to abort: off the queue, or its worker killed (its call then rejects with the signal's reason). */
    cancel(job: Job): void {
      const at = this.queue.indexOf(job);
      if (at >= 0) {
        this.queue.splice(at, 1);
        settleJob(job, false, job.signal?.reason);
      } else if (this.current === job) void this.worker?.kill();
    }

    /** Starts this lane's worker now, if it has none: its first call then finds it up (or starting). */
    warm(ctx: CallContext): void {
      if (isClosed || this.starting || this.isBusy || this.worker?.isUsable) return;
      this.starting = this.spawn(ctx).then(
        (worker) => {
          this.starting = null;
          if (isClosed) return void worker.kill();
          if (this.worker?.isUsable) return void worker.kill(); // a call started one meanwhile
          this.worker = worker;
          if (!this.isBusy && !this.queue.length) this.markIdle(worker);
        },
        () => {
          this.starting = null; // the first call starts one, and says why it could not
        },
      );
    }

    /** the worker waits for calls: the cap on live workers may stop it (until its next call, or its end: see spawn) */
    private markIdle(worker: SandboxWorker): void {
      this.unmarkIdle = slots.markIdle(() => void worker.kill());
      this.idleWorker = worker;
    }

    /** a worker that dies while idle is no longer one to stop */
    private onReleased(worker: SandboxWorker): void {
      if (this.idleWorker !== worker) return;
      this.unmarkIdle?.();
      this.unmarkIdle = null;
      this.idleWorker = null;
    }

    rejectQueued(error: unknown): void {
      for (const job of this.queue.splice(0)) settleJob(job, false, error);
    }

    private async pump(): Promise<void> {
      if (this.isBusy) return;
      const job = this.queue.shift();
      if (!job) return;
      this.isBusy = true;
      this.unmarkIdle?.();
      this.unmarkIdle = null;
      this.idleWorker = null;
      this.current = job;
      try {
        const out = await this.runOnWorker(job);
        if (job.signal?.aborted) throw job.signal.reason;
        settleJob(job, true, out);
      } catch (error) {
        settleJob(job, false, job.signal?.aborted ? job.signal.reason : error);
      } finally {
        this.current = null;
        this.isBusy = false;
        const worker = this.worker;
        if (!this.queue.length && worker?.isUsable && !isClosed) this.markIdle(worker);
        void this.pump();
      }
    }

    private async runOnWorker(job: Job): Promise<Json> {
      const { ctx } = job;
      if (isClosed) throw closedError(ctx);
      if (this.starting && !this.worker?.isUsable) await this.starting; // warmed: it is starting already
      if (!this.worker?.isUsable) this.worker = await this.spawn(ctx); // none, gone, or being killed
      const worker = this.worker;
      try {
        const starting = worker.ready(); // nothing to wait on once it is up (the usual call)
        if (starting) await starting;
      } catch (error) {
        if (this.worker === worker) this.worker = null;
        throw isClosed ? closedError(ctx) : startError(this.flavour, ctx, error);
      }
      if (isClosed) throw closedError(ctx);
      // asked to abort while its worker started: nothing of it runs
      if (job.signal?.aborted) throw job.signal.reason;
      const priming = guard?.before(); // the first call only
      if (priming) await priming;
      const who = `${ctx.language} function ${ctx.exportName} in ${ctx.modulePath}`;
      const stopWatch = guard?.watch(() => void worker.kill(), who);
      // the timeout covers the module's import on its first call, not the interpreter's start
      const { outcome, isOomKilled } = await worker.run(job.request);
      const breach = stopWatch?.() ?? null;
      if (isWorkerSpent(outcome)) {
        await worker.kill();
        if (this.worker === worker) this.worker = null; // the next call spawns a fresh one
      }
      if (breach) throw breach;
      await guard?.after(who);
      if (isClosed && outcome.kind !== 'reply') throw closedError(ctx);
      const value = resultOf(outcome, ctx, isOomKilled);
      // what a call that returned printed goes back with it (a failure's is in its error); the usual call prints nothing
      if (outcome.output.stdout || outcome.output.stderr) job.prepared.printed = outcome.output;
      return value;
    }

    private async spawn(ctx: CallContext): Promise<SandboxWorker> {
      let launch: WorkerLaunch;
      let bound: string[];
      try {
        ({ launch, bound } = this.launch(ctx));
      } catch (error) {
        throw startError(this.flavour, ctx, error); // no worker script, no tsx
      }
      let worker: SandboxWorker;
      try {
        worker = await SandboxWorker.start(launch, launcherFor(bound), { maxProcesses, memoryBytes: memoryLimitMb * 1024 * 1024 }, slots, () => isClosed);
      } catch (error) {
        throw isClosed ? closedError(ctx) : startError(this.flavour, ctx, error);
      }
      workers.add(worker);
      void worker.released.then(() => {
        workers.delete(worker);
        this.onReleased(worker);
      });
      return worker;
    }

    /** the worker's launch, and the host folders its sandbox sees (none without one) */
    private launch(ctx: CallContext): { launch: WorkerLaunch; bound: string[] } {
      // bwrap's --die-with-parent and pid namespace take the worker with its parent
      const { command, args } = launchCommand(this.flavour, memoryLimitMb, isolation.kind === 'bwrap');
      const workDir = opts.workDir ?? path.dirname(ctx.modulePath);
      if (isolation.kind === 'none') return { launch: { command, args, env: workerEnv(home(), this.flavour), cwd: workDir }, bound: [] };
      const filter = isolation.seccomp;
      const readOnly = [...runtimeFiles(this.flavour), opts.bundleDir ?? path.dirname(ctx.modulePath)];
      const inWork = guard?.readOnlyEntries() ?? [];
      // the worker checks, before it is ready, that each is what was checked here (workspace-guard.ts)
      const realWork = inWork.length ? realpathSync(opts.workDir!) : '';
      for (const b of inWork) args.push(`--bound=${b.dev}:${b.ino}:${path.join(realWork, b.entry)}`);
      const sandbox = bwrapArgs({
        readOnly,
        // only a folder the caller names is writable: without one, the code's own folder is read-only
        workDir: opts.workDir ?? null,
        readOnlyInWork: inWork.map((b) => b.entry),
        cwd: workDir,
        env: workerEnv('/tmp', this.flavour),
        tmpBytes,
        seccompFd: filter ? LAUNCH_DATA_FD : undefined,
      });
      // bwrap itself gets no environment either: nothing of the server's reaches the sandbox's pid 1
      const launch = { command: isolation.bwrap, args: [...sandbox, '--', command, ...args], env: {}, cwd: os.tmpdir(), ...(filter ? { fd5: filter } : {}) };
      return { launch, bound: [...readOnly, ...(opts.workDir ? [opts.workDir] : [])] };
    }
  }

  function laneFor(flavour: Flavour): Lane {
    let pool = lanes.get(flavour);
    if (!pool) lanes.set(flavour, (pool = []));
    // an idle warm worker first (its module cache is hot), then a new lane, then the shortest queue
    const idle = pool.filter((l) => l.load === 0);
    const pick = idle.find((l) => l.worker?.isUsable) ?? idle[0];
    if (pick) return pick;
    if (pool.length < maxWorkers) {
      const lane = new Lane(flavour);
      pool.push(lane);
      return lane;
    }
    return pool.reduce((a, b) => (b.load < a.load ? b : a));
  }

  /**
   * A call checked and its request made, nothing sent: `start` queues it on a lane (see CodeSandbox.prepare).
   * What it finds wrong is the rejection `start` gives, as `call` gives it.
   */
  function prepare(call: CodeCall, opts: CallOptions = {}): PreparedCall {
    const ctx: CallContext = {
      language: call.language,
      modulePath: call.modulePath,
      exportName: call.exportName,
      timeoutMs: call.timeoutMs,
      memoryLimitMb,
      isolation: isolation.kind,
    };
    const where = { language: call.language, module: call.modulePath, function: call.exportName };
    const badCall = checkCall(call);
    if (badCall) return refused(ctx, new CodeStepError(badCall, where));
    const flavour = flavourFor(call.language, call.modulePath);
    if (typeof flavour !== 'string') {
      const why = `Cannot run ${call.exportName} from ${call.modulePath}: ${flavour.mismatch}.`;
      return refused(ctx, new CodeStepError(why, where));
    }
    let request: WorkerRequest;
    try {
      request = requestOf(call);
    } catch (error) {
      return refused(ctx, error); // an input JSON cannot carry: its call fails, as it did when its request was made on the worker
    }
    const prepared: PreparedCall = { start: () => start(call, ctx, flavour, request, opts.signal, prepared) };
    return prepared;
  }

  /** a call `start` refuses (a closed sandbox says so first, as it always has) */
  function refused(ctx: CallContext, error: unknown): PreparedCall {
    return { start: () => Promise.reject(isClosed ? closedError(ctx) : error) };
  }

  function start(call: CodeCall, ctx: CallContext, flavour: Flavour, request: WorkerRequest, signal: AbortSignal | undefined, prepared: PreparedCall): Promise<Json> {
    if (isClosed) return Promise.reject(closedError(ctx));
    if (signal?.aborted) return Promise.reject(signal.reason);
    ensureExitHook();
    liveSandboxes.add(internals);
    return new Promise<Json>((resolve, reject) => {
      const lane = laneFor(flavour);
      const job: Job = signal ? { call, request, ctx, resolve, reject, signal, lane, prepared } : { call, request, ctx, resolve, reject, prepared };
      if (signal) SIGNAL_JOBS.add(signal, job);
      lane.push(job);
    });
  }

  return {
    call(call: CodeCall, opts: CallOptions = {}): Promise<Json> {
      return prepare(call, opts).start();
    },

    prepare,

    warm(target: CodeWarmUp): void {
      if (isClosed || checkCall({ ...target, exportName: 'warm', input: null, timeoutMs: 1 })) return;
      const flavour = flavourFor(target.language, target.modulePath);
      if (typeof flavour !== 'string') return;
      ensureExitHook();
      liveSandboxes.add(internals);
      laneFor(flavour).warm({ language: target.language, modulePath: target.modulePath, exportName: 'warm', timeoutMs: 1, memoryLimitMb });
    },

    async close(): Promise<void> {
      if (isClosed) return;
      isClosed = true;
      const all = [...lanes.values()].flat();
      for (const lane of all) lane.rejectQueued(new CodeStepError('The code sandbox was closed before this call ran.'));
      await Promise.all(all.map((lane) => lane.worker?.kill()));
      // bounded: a worker stuck in the kernel must not hold up close() (its cgroup is swept later)
      await Promise.race([Promise.all([...workers].map((w) => w.released)), new Promise((r) => setTimeout(r, 2_000).unref())]);
      liveSandboxes.delete(internals);
      if (homeDir) killLeftBy(homeDir);
      if (homeDir) await rm(homeDir, { recursive: true, force: true });
      // no code of this run runs any more: a .git made since its last step is renamed now
      await guard?.final().catch(() => {});
    },
  };
}

/**
 * How a worker is launched: through this process's spawner when it has one (the app's server: it
 * must not fork), unless the sandbox would see the spawner's socket folder; else forked from here.
 */
function launcherFor(bound: string[]): (launch: WorkerLaunch) => WorkerChild {
  const spawner = activeSpawner();
  if (!spawner || spawner.reachableFrom(bound)) return spawnDirect;
  return (launch) => spawner.spawn(launch);
}

/** what the worker is sent for `call`, its JSON made now (requestBody): a prepared call's is made before it starts */
function requestOf(call: CodeCall): WorkerRequest {
  const r: WorkerRequest = call.chain
    ? { steps: call.chain.map((s) => ({ modulePath: call.modulePath, exportName: s.exportName, into: s.into })), input: call.input, timeoutMs: call.timeoutMs }
    : { modulePath: call.modulePath, exportName: call.exportName, input: call.input, timeoutMs: call.timeoutMs };
  r.body = requestBody(r);
  return r;
}

const HOME_PREFIX = 'stagecraft-sandbox-';
let isSwept = false;

/** a temp home named without its owner's pid (an older layout) is removed once it is a day old */
const UNOWNED_HOME_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Temp homes (in `dir`) of processes that are gone — SIGKILLed before they could clean up — are
 * removed; a sandbox sweeps once per process, before it makes its own. Sandboxed workers need none.
 */
export function sweepAbandonedHomes(dir: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(HOME_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const home = path.join(dir, name);
    const owner = /^stagecraft-sandbox-(\d+)-/.exec(name)?.[1];
    if (owner === undefined) {
      if (!isOlderThan(home, UNOWNED_HOME_MAX_AGE_MS)) continue;
    } else {
      const pid = Number(owner);
      if (pid === process.pid || isProcessAlive(pid)) continue;
    }
    rmSync(home, { recursive: true, force: true });
  }
}

function isOlderThan(file: string, ms: number): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs > ms;
  } catch {
    return false;
  }
}

function startError(flavour: Flavour, ctx: CallContext, error: unknown): CodeStepError {
  const output = error instanceof WorkerStartError ? error.output : { stdout: '', stderr: '' };
  const why = error instanceof Error ? error.message : String(error);
  const stderr = output.stderr.trim();
  const tail = stderr ? `\nLast stderr:\n${stderr.slice(-1500)}` : '';
  const hint = flavour === 'python' ? ' Is python3 installed in /usr/local/bin or /usr/bin?' : '';
  return new CodeStepError(
    `Could not start the ${flavour} worker to run ${ctx.exportName} in ${ctx.modulePath}: ${why}.${hint}${tail}`,
    { language: ctx.language, module: ctx.modulePath, function: ctx.exportName, stderrTail: output.stderr },
  );
}

function closedError(ctx: CallContext): CodeStepError {
  return new CodeStepError(
    `The code sandbox is closed; ${ctx.language} function ${ctx.exportName} in ${ctx.modulePath} was not run.`,
    { language: ctx.language, module: ctx.modulePath, function: ctx.exportName },
  );
}

/** A sentence saying what is wrong with the call's shape, or null. */
function checkCall(call: CodeCall): string | null {
  if (call.language !== 'python' && call.language !== 'node') {
    return `Unknown code step language "${String(call.language)}".`;
  }
  if (!path.isAbsolute(call.modulePath)) return `The module path must be absolute, got "${call.modulePath}".`;
  if (!call.exportName) return `No function name given for module ${call.modulePath}.`;
  if (!(Number.isFinite(call.timeoutMs) && call.timeoutMs > 0)) {
    return `timeout_ms must be a positive number of milliseconds, got ${call.timeoutMs}.`;
  }
  return null;
}
