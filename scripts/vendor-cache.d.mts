// Types of scripts/vendor-cache.mjs, for the TypeScript that imports it (cli/wasm-tier.ts, its tests).
export const VENDOR_FILE: string;
export const CACHE_SUFFIX: string;
export function setV8Flag(flag: string): void;
export function cacheFileFor(file: string): string;
export function vendored(spec: string): unknown;
export function readCache(file: string, source: string): Buffer | undefined;
export function writeCache(file: string, source: string, data: Buffer): void;
export function loadVendor(file: string): { file: string; exports: Record<string, () => unknown>; cacheUsed: boolean };
