/** How V8 compiles the WebAssembly of a CLI command (the embedded database's Postgres). */
import { setV8Flag } from '../scripts/vendor-cache.mjs';

/**
 * The embedded database is Postgres compiled to WebAssembly (9 MB). V8 runs it first with its
 * baseline compiler (Liftoff) and recompiles the functions that run hot with its optimizing one
 * (TurboFan) on background threads. A CLI command lives about a second, and Postgres's start-up runs
 * a lot of code once: the recompiles it sets off cost more CPU than the whole command otherwise
 * does (measured on `stagecraft run examples/summarize`: 2.6 s user CPU → 1.3–1.7 s, peak RSS
 * 220 → 155 MB), on a machine of 2 cores they take the core the run's code step needs, and the
 * main thread waits on their code-space lock (hundreds of ms, in futex). Baseline code queries
 * about as fast over a command's lifetime (2,400 statements: the same time either way, ±noise).
 * The app server, a long-lived process, keeps the default. Set before the module is compiled:
 * the flag is read when the WebAssembly is compiled (pglite-assets.ts, or PGlite itself).
 */
export function baselineWasmOnly(): void {
  setV8Flag('--liftoff-only'); // noted: V8's code caches are per set of flags (vendor-cache.mjs)
}
