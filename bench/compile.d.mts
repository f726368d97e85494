// Types of bench/compile.mjs, for the TypeScript that imports it (bench-store.ts, the crash test).
export function compileBench(entry: string): Promise<string>;
