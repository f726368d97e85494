/**
 * A process-wide cap on live code workers, across every run's sandbox, so
 * that many concurrent runs cannot mean as many interpreters, each allowed its
 * full memory limit.
 *
 * A worker holds a slot from its spawn to its exit. A call that needs a new
 * worker while every slot is held waits for one (the wait does not count
 * against its timeout). Warm workers that are idle between their run's steps
 * hold slots too, so a waiting call stops the idle worker that has waited
 * longest (its run starts a fresh one at its next step); without that, runs
 * waiting on their models — or a parent waiting on its child run — would hold
 * every slot and the rest would wait forever. A worker that is running a call
 * is never stopped for another: calls end (each has a timeout), so every
 * waiter gets a slot.
 *
 * Owns: the count, the queue of waiters and the choice of whom to stop. Does
 * not: spawn or kill workers (sandbox.ts hands it an `evict` for each idle one).
 */
import os from 'node:os';
import { countFromEnv } from './workspace-usage';

/** default cap: four workers per CPU (a run may hold a python and a node worker at once) */
export const DEFAULT_MAX_WORKERS = Math.max(4, 4 * os.availableParallelism());

type Idle = { evict: () => void; since: number };

export class WorkerSlots {
  private live = 0;
  private readonly waiters: (() => void)[] = [];
  private readonly idle = new Set<Idle>();
  private evicting = 0;
  private clock = 0;

  constructor(readonly max: number) {}

  /** Live workers now. */
  get count(): number {
    return this.live;
  }

  /** Waits for a slot; the function it resolves to gives the slot back (call it once, when the worker has exited). */
  async acquire(): Promise<() => void> {
    if (this.live < this.max) this.live++;
    else {
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        this.evictIdle();
      });
    }
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      this.release();
    };
  }

  /** Marks a worker idle (between steps) until the returned function is called; `evict` stops it. */
  markIdle(evict: () => void): () => void {
    const entry: Idle = { evict, since: ++this.clock };
    this.idle.add(entry);
    if (this.waiters.length > this.evicting) this.evictIdle();
    return () => this.idle.delete(entry);
  }

  private release(): void {
    if (this.evicting > 0) this.evicting--;
    const next = this.waiters.shift();
    if (next) next(); // the slot passes straight to the waiter
    else this.live--;
  }

  /** Stops the idle worker that has waited longest, when more calls wait than workers are already being stopped. */
  private evictIdle(): void {
    if (this.waiters.length <= this.evicting) return;
    let oldest: Idle | null = null;
    for (const entry of this.idle) if (!oldest || entry.since < oldest.since) oldest = entry;
    if (!oldest) return;
    this.idle.delete(oldest);
    this.evicting++;
    oldest.evict();
  }
}

let shared: WorkerSlots | null = null;

/** The slots every sandbox of this process shares: STAGECRAFT_MAX_WORKERS, default DEFAULT_MAX_WORKERS. */
export function sharedWorkerSlots(): WorkerSlots {
  shared ??= new WorkerSlots(countFromEnv(process.env, 'STAGECRAFT_MAX_WORKERS', DEFAULT_MAX_WORKERS));
  return shared;
}
