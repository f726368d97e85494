/**
 * When V8 optimizes a command's JavaScript. A function runs first in V8's interpreter, then as
 * baseline code (Sparkplug, compiled on the main thread in microseconds), and once it has run a
 * while — its interrupt budget used up — it is recompiled by the optimizing compiler (TurboFan) on
 * a background thread. A command that drives runs (`run`, `resume`, `worker`) executes much of the
 * kernel, the store's write path and the sandbox's call path a few hundred times in its first
 * seconds: with the default budget, TurboFan then compiles the large per-run functions (the
 * runner's phases, the journal, the wire encoding, the report), each one taking 20–65 ms of a
 * background thread, more CPU than they spend running in all of those runs, and on a machine of 2
 * cores that thread takes the core the database and the code workers need.
 *
 * Measured with bench:compare (ONLY='concurrency 8', 200 runs × 5 steps, 8 interleaved pairs with
 * main, both orders, load 5.8–7.7): this process's CPU per run effectful 3.67 → 2.72 ms, pure 1.85 →
 * 1.11, op steps 1.70 → 1.11 (lower in 8 of 8 each), its other threads' 0.95 / 0.80 / 0.78 →
 * 0.13 / 0.00 / 0.17, its main thread's the same (2.73 / 1.05 / 0.95 vs 2.60 / 1.10 / 1.00); wall per
 * run 8.9 → 7.3, 6.3 → 4.5, 4.2 → 3.0 ms (lower in 5, 5, 6 of 8). After 600 warm runs the main
 * thread's CPU is about the same (the code is still optimized, four times later). Set before the
 * command's code runs hot (the flag is read whenever a function's budget is reset); the app server, a
 * long-lived process, keeps V8's default.
 *
 * The cost, and why it is kept: one run of 1,000 effectful node steps calls each per-step function
 * about 1,000 times, under this budget too few for TurboFan, so the step's path runs as baseline code
 * to the end. bench:store --mode single --kind effectful --stamps, V8's default budget against this
 * one (8 interleaved pairs, load 3–7): a worker's reply → the commit on the wire 141 → 128 µs and
 * the database's answer → the next request 57 → 48 µs (lower in 8 of 8 each), main thread's CPU
 * 0.375 → 0.355 ms a step (7 of 8), but other threads' 0.03 → 0.15 ms a step (TurboFan, higher in
 * 8 of 8) and ms a step 0.81 → 0.82 (lower in 3 of 8): the compile costs the core the database and
 * the worker need about what it saves the step. Not taken.
 */
import { setV8Flag } from '../scripts/vendor-cache.mjs';

/** V8's default interrupt budget (node 20, V8 11.3: --interrupt-budget=67584), four times over */
export const INTERRUPT_BUDGET = 4 * 67_584;

/** Functions are optimized after four times as much running as V8's default asks for. */
export function optimizeLater(): void {
  setV8Flag(`--interrupt-budget=${INTERRUPT_BUDGET}`); // noted: V8's code caches are per set of flags (vendor-cache.mjs)
}
