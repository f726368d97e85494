/**
 * `instrument`: bench:store's timing of a port's calls (a store's commit, a sandbox call). The method
 * is replaced by one that calls `after(args, t0)` once the call's promise settles (`t0`:
 * performance.now() at the call), and hands its caller the call's own promise. The timing hangs off
 * that promise as a branch of its own (one `then`, no async wrapper): the caller's `await` is settled
 * when the call is, with no promise between them, as the floor's inline timing adds none — a promise
 * in between was one more microtask turn on the critical path of every commit and every call measured.
 */
export function instrument(obj: object, name: string, after: (args: unknown[], t0: number) => void): void {
  const o = obj as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const orig = o[name].bind(obj);
  o[name] = (...args: unknown[]) => {
    const t0 = performance.now();
    let p: Promise<unknown>;
    try {
      p = orig(...args);
    } catch (e) {
      p = Promise.reject(e);
    }
    // settled either way: the branch never rejects unheard (the caller hears the call's rejection)
    const done = () => after(args, t0);
    p.then(done, done);
    return p;
  };
}
