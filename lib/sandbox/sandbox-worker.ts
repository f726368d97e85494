/**
 * A worker process with what the host keeps around it: a slot of the
 * process-wide worker cap (worker-slots.ts), a cgroup capping its processes
 * and memory (cgroups.ts), and the list of processes that make up "the worker
 * itself" — so that when a step ends, everything the step started is killed.
 *
 * "The worker itself" is what runs before any user code: the processes in the
 * worker's cgroup when it reports ready (the launcher chain: bubblewrap's
 * monitor and its pid-1, the interpreter, and for TypeScript the esbuild
 * service tsx starts while the worker warms up). After each call every other
 * process of the cgroup is SIGKILLed — detached, `setsid`, double-forked or
 * renamed, the cgroup lists it. Where no cgroup can be made (or the worker's
 * launcher failed to join the folder it is listed from: listingAtReady), the worker's
 * descendants in /proc stand in for the listing (inside bubblewrap that is
 * everything, orphans being re-parented to the sandbox's pid 1; without it a
 * double-forked daemon re-parents outside and escapes the step's end — until its run's: sandbox.ts
 * killLeftBy finds it by its HOME).
 *
 * Owns: the slot, the cgroup and the keep-list of one worker, the stray kill
 * after each call (one fresh read of the cgroup's listing when nothing was
 * left: worker-itself.ts tells the worker from strays without parsing it),
 * and whether the memory cgroup OOM-killed it. Does not:
 * queue calls or choose workers (sandbox.ts), or speak the protocol
 * (worker.ts).
 */
import path from 'node:path';
import {
  createWorkerCgroup,
  dropKeptListing,
  foldersLacking,
  inWorkerCgroup,
  killPids,
  listingOf,
  oomKills,
  releaseWorkerCgroup,
  releaseWorkerCgroupNow,
  reportMissedJoin,
  type WorkerCgroup,
  type WorkerCgroupLimits,
} from './cgroups';
import { descendantsOf } from './processes';
import { WorkerProcess, type CallOutcome, type WorkerLaunch, type WorkerRequest } from './worker';
import type { WorkerChild } from './worker-child';
import { WorkerItself } from './worker-itself';
import type { WorkerSlots } from './worker-slots';

/** how many listings a stray kill takes at most (each one kills what the last one missed: children forked meanwhile) */
const STRAY_KILL_ROUNDS = 50;

export class SandboxWorker {
  readonly process: WorkerProcess;
  /** resolves once the worker has exited and its cgroup is gone (bounded) */
  readonly released: Promise<void>;
  /** with a cgroup that lists it: what of its listing is the worker itself; else: the pids of its tree at ready */
  private itself: WorkerItself | null = null;
  private keep: Set<number> | null = null;
  private oomAtReady = 0;
  private oomAtExit: number | null = null;

  private constructor(
    launch: WorkerLaunch,
    launcher: (launch: WorkerLaunch) => WorkerChild,
    private readonly cg: WorkerCgroup | null,
    releaseSlot: () => void,
  ) {
    try {
      this.process = new WorkerProcess(cg ? { ...launch, ...inWorkerCgroup(cg, launch.command, launch.args) } : launch, launcher);
    } catch (error) {
      if (cg) releaseWorkerCgroupNow(cg);
      releaseSlot();
      throw error;
    }
    this.released = this.process.whenExited.then(async () => {
      if (cg) {
        // read before the cgroup goes: the exit may have been the kernel's OOM kill
        this.oomAtExit = oomKills(cg);
        await releaseWorkerCgroup(cg);
      }
      releaseSlot();
    });
  }

  /** Takes a slot (waiting for one when every slot is held), makes the cgroup, spawns. */
  static async start(launch: WorkerLaunch, launcher: (launch: WorkerLaunch) => WorkerChild, limits: WorkerCgroupLimits, slots: WorkerSlots, isCancelled: () => boolean): Promise<SandboxWorker> {
    const releaseSlot = await slots.acquire();
    if (isCancelled()) {
      releaseSlot();
      throw new Error('the sandbox was closed while the call waited for a worker slot');
    }
    return new SandboxWorker(launch, launcher, createWorkerCgroup(limits), releaseSlot);
  }

  get isAlive(): boolean {
    return this.process.isAlive;
  }

  /** alive and not being killed: one to send a call to (WorkerProcess.isUsable) */
  get isUsable(): boolean {
    return this.process.isUsable;
  }

  /** Resolves when the worker is ready; from then on what runs in its cgroup is "the worker itself". */
  ready(): Promise<void> | void {
    if (this.keep || this.itself) return; // ready before: no promise to wait on (one per call)
    return this.becomeReady();
  }

  private async becomeReady(): Promise<void> {
    await this.process.ready;
    if (this.keep || this.itself) return;
    const listing = this.cg && this.listingAtReady(this.cg);
    if (listing) this.itself = new WorkerItself(listing);
    else this.keep = new Set(this.processes());
    this.oomAtReady = oomKills(this.cg);
  }

  /**
   * The cgroup's listing at ready if it lists the worker, else null; checked once: its launcher joins
   * each folder best effort (cgroups.ts inWorkerCgroup), and a join that failed — the folder removed,
   * not a cgroup, the write refused — leaves the worker outside it. One read of each folder, at start
   * only (workers start rarely; the per-call stray kill is unchanged): the clean listing is what that
   * read found, not read again.
   *
   * What a serious sandbox's user expects, and what this does: no wall silently missing. A listing
   * that does not name the worker would let every stray a call leaves outlive it, so the listing is
   * trusted only if it does (the kept cgroup2 one, else the first folder's); else the worker's tree is
   * tracked by parentage, exactly as where no cgroup can be made. A limit's folder that lacks it
   * means that limit does not hold for it: the worker still runs — as it does, with the same walls,
   * on a host where no cgroup can be made, since refusing would fail every code step on a host whose
   * cgroups misbehave for a reason no step can fix — and that is said where the sandbox reports its
   * state (cgroups.ts reportMissedJoin: stderr once, `cgroupStatus().missed`, GET /api/health).
   */
  private listingAtReady(cg: WorkerCgroup): Buffer | null {
    const { lacking, listings } = foldersLacking(cg, this.process.pid);
    if (cg.kept && lacking.includes(path.dirname(cg.kept.file))) dropKeptListing(cg);
    const listingDir = path.dirname(cg.kept ? cg.kept.file : cg.procsFile);
    const listing = lacking.includes(listingDir) ? null : (listings.get(listingDir) ?? null);
    if (lacking.length) reportMissedJoin(cg, this.process.pid, lacking, !listing);
    return listing;
  }

  /**
   * Runs one request; when it ends, whatever the call started (and left running) is killed.
   * `isOomKilled`: the worker exited, and its memory cgroup had OOM-killed (counted once at ready,
   * once at the exit, never per call: reading the count costs more than a warm call).
   */
  async run(request: WorkerRequest): Promise<{ outcome: CallOutcome; isOomKilled: boolean }> {
    const outcome = await this.process.run(request);
    if (this.process.isAlive) {
      // the usual case, nothing left behind, costs one listing and no timer or promise
      if (this.killStraysOnce()) await this.killStrays();
      return { outcome, isOomKilled: false };
    }
    // the count was read at the exit, before the 'exited' outcome could arrive
    return { outcome, isOomKilled: (this.oomAtExit ?? 0) > this.oomAtReady };
  }

  /** The pids of the worker's tree where no cgroup lists it: its descendants (and itself). */
  private processes(): number[] {
    const pid = this.process.pid;
    return pid === undefined ? [] : [pid, ...descendantsOf(pid)];
  }

  /** The rounds after a first that killed some: each kills what the last one missed (children forked meanwhile). */
  private async killStrays(): Promise<void> {
    for (let round = 1; round < STRAY_KILL_ROUNDS; round++) {
      await new Promise((r) => setTimeout(r, 2));
      if (!this.killStraysOnce()) return;
    }
  }

  /** One round of the stray kill: how many processes it signalled. */
  private killStraysOnce(): number {
    if (this.cg && this.itself) return this.killListedStrays(this.cg);
    const keep = this.keep ?? new Set<number>();
    return killPids(this.processes().filter((p) => !keep.has(p)));
  }

  /** Kills every process of the cgroup that is not the worker itself; how many it signalled. */
  private killListedStrays(cg: WorkerCgroup): number {
    const listing = listingOf(cg);
    if (!listing || !this.itself) return 0; // unreadable: as before, nothing is known to kill
    return killPids(this.itself.strays(listing));
  }

  kill(): Promise<void> {
    return this.process.kill();
  }

  /** Synchronous, for `process.on('exit')`: the worker's group and everything in its cgroup. */
  killNow(): void {
    this.process.killNow();
    if (this.cg) releaseWorkerCgroupNow(this.cg);
  }
}
