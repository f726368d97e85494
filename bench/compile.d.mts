// Types of bench/compile.mjs, for the TypeScript that imports it (bench-store.ts, the crash test).
export function compileBench(entry: string): Promise<string>;
/** the build made in `out` put at `target`; dropped when a build is there already (bench/compile.mjs) */
export function moveBuild(out: string, target: string): void;
