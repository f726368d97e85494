/**
 * Whether this bench runs compiled (bench/run-compiled.mjs: plain JavaScript, as the shipped CLI is) or
 * from its TypeScript (through tsx, whose keepNames and source maps add to node's CPU). bench/compile.mjs
 * defines STAGECRAFT_BENCH_COMPILED in what it compiles; anywhere else it is no global at all. Every
 * bench's JSON line carries it as `compiled`, so a figure says how it was made.
 */
declare const STAGECRAFT_BENCH_COMPILED: boolean | undefined;

export const COMPILED: boolean = typeof STAGECRAFT_BENCH_COMPILED !== 'undefined' && STAGECRAFT_BENCH_COMPILED === true;
