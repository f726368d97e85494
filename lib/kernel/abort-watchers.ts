/**
 * Who waits to hear of an abort request, per run: the driver of each run this
 * process drives (runner.ts) watches its own.
 *
 * Owns: the watcher sets and the rule that a watcher hears of a run's request
 * once, then is dropped, and never breaks the write or poll that found it.
 * Does not: find requests recorded by other processes (a store shared by
 * processes polls for them and hands what it finds to `notify`).
 */
import type { AbortRequest } from './ports';

export type AbortWatcher = (req: AbortRequest) => void;

export class AbortWatchers {
  private readonly byRun = new Map<string, Set<AbortWatcher>>();

  /** `fn` hears of the run's request (once); the returned function stops it */
  add(runId: string, fn: AbortWatcher): () => void {
    let set = this.byRun.get(runId);
    if (!set) this.byRun.set(runId, (set = new Set()));
    set.add(fn);
    return () => {
      const s = this.byRun.get(runId);
      if (!s) return;
      s.delete(fn);
      if (s.size === 0) this.byRun.delete(runId);
    };
  }

  /** the runs watched now */
  runIds(): string[] {
    return [...this.byRun.keys()];
  }

  get isEmpty(): boolean {
    return this.byRun.size === 0;
  }

  notify(req: AbortRequest): void {
    const set = this.byRun.get(req.runId);
    if (!set) return;
    this.byRun.delete(req.runId);
    for (const fn of set) {
      try {
        fn(req);
      } catch {
        // a watcher's failure is its own: the request is recorded either way
      }
    }
  }
}
