/**
 * The tiny size every `npm run bench:*` accepts: `--tiny` on its command line or BENCH_TINY=1 in its
 * environment. `npm test` runs each bench once at this size (scripts/test.mjs), so a bench that
 * breaks is seen; its figures then only say that the script works, not how fast anything is.
 */
export const TINY = process.argv.includes('--tiny') || process.env.BENCH_TINY === '1';

/** `full` normally, `tiny` at the tiny size. */
export const size = <T>(full: T, tiny: T): T => (TINY ? tiny : full);
