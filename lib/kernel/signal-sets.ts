/**
 * What is in flight under each abort signal (a run's), for whoever must cut it short when the
 * signal aborts: one 'abort' listener per signal, added with its first item, and each item handed
 * to `onAbort` in the order it was added. An item that settles leaves its set (`delete`).
 *
 * Why not a listener per item: adding and removing one on every step (the kernel's waiters,
 * step.ts) or every sandbox call (sandbox.ts) cost two closures and EventTarget's listener-list
 * bookkeeping each time, more than the step's own bookkeeping.
 *
 * Owns: the sets and their one listener per signal. Does not: decide what cutting an item short
 * means (the caller's `onAbort` does).
 */
export class SignalSets<T> {
  private readonly sets = new WeakMap<AbortSignal, Set<T>>();

  constructor(private readonly onAbort: (item: T, signal: AbortSignal) => void) {}

  /** `item` is in flight under `signal` until `delete`d (or the signal aborts) */
  add(signal: AbortSignal, item: T): void {
    let set = this.sets.get(signal);
    if (!set) {
      const items = (set = new Set());
      this.sets.set(signal, items);
      signal.addEventListener('abort', () => {
        for (const x of [...items]) this.onAbort(x, signal);
        items.clear();
      }, { once: true });
    }
    set.add(item);
  }

  delete(signal: AbortSignal, item: T): void {
    this.sets.get(signal)?.delete(item);
  }
}
