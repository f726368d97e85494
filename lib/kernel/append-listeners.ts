/**
 * Who hears of the events a store appends in this process: the in-process half
 * of a live view of a run (the app's event stream wakes on it instead of
 * re-reading the log on a timer).
 *
 * Owns: the listener set and the rule that a listener never breaks a write (it
 * is called after the commit, and what it throws is dropped). Does not: see
 * other processes' writes (a reader of a run driven elsewhere polls its cursor),
 * or carry the events themselves (a listener reads them from the store, by seq).
 */
export type AppendListener = (runId: string, lastSeq: number) => void;

export class AppendListeners {
  private readonly listeners = new Set<AppendListener>();

  /** `fn` hears of every append from now on; the returned function stops it. */
  add(fn: AppendListener): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  /** after events up to `lastSeq` of `runId` are committed */
  notify(runId: string, lastSeq: number): void {
    for (const fn of this.listeners) {
      try {
        fn(runId, lastSeq);
      } catch {
        // a listener's failure is its own: the write it hears of is already committed
      }
    }
  }
}
