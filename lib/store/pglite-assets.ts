/**
 * PGlite's two large files — Postgres compiled to WebAssembly (9 MB) and the file system it starts
 * with (6 MB) — read, and the WebAssembly compiled, before the embedded store is opened.
 *
 * PGlite reads and compiles them itself when it starts, and the thread that starts it has nothing to
 * do meanwhile (a CPU profile of `stagecraft run`: 150–250 ms idle in PGlite.create, reading the
 * files and waiting for the compile). A short command that knows it will open the embedded store
 * (the CLI's `run`) calls `preloadPgliteAssets` first thing: the files are read and V8 compiles the
 * module on its background threads while the command loads its own modules and compiles the skill.
 * open-embedded.ts hands what was preloaded to PGlite.create (`pgliteWasmModule`, `fsBundle`), or
 * lets PGlite load them as before when nothing was, or the preload failed.
 *
 * Owns: that preload. Does not: open anything (open-embedded.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { resolveInstalled } from '../resolve-installed';

/**
 * `fsBundle`: the file system's bytes behind the one call PGlite makes on it, `arrayBuffer()` (it
 * checks the size it gets against the package's), not a real Blob: on node 20 making a 6 MB Blob and
 * reading it back costs ~100 ms of this thread, copying what was read already.
 */
export type PgliteAssets = { pgliteWasmModule: WebAssembly.Module; fsBundle: Blob };

let assets: Promise<PgliteAssets> | null = null;

/** Starts reading and compiling PGlite's files (once per process). */
export function preloadPgliteAssets(): void {
  if (assets) return;
  assets = load();
  // a failed preload is no failure: PGlite then loads the files itself
  assets.catch(() => undefined);
}

/** What `preloadPgliteAssets` started, or null when nothing was preloaded or it failed. */
export async function preloadedPgliteAssets(): Promise<PgliteAssets | null> {
  return assets ? assets.catch(() => null) : null;
}

async function load(): Promise<PgliteAssets> {
  // the files beside PGlite's own module: the ones PGlite.create would read
  const dist = path.dirname(resolveInstalled('@electric-sql/pglite'));
  const [wasm, data] = await Promise.all([readFile(path.join(dist, 'pglite.wasm')), readFile(path.join(dist, 'pglite.data'))]);
  // readFile gives a file this size a buffer of its own; copied only if it did not
  const bytes = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data.buffer : data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  // as a Blob does, each call has bytes of its own: the first gets what was read, a later one (PGlite's
  // initdb instance, when the template could not be used) a copy, so neither sees what the other did to its buffer
  let given = false;
  const fsBundle = { arrayBuffer: async () => (given ? bytes.slice(0) : ((given = true), bytes)) } as unknown as Blob;
  return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle };
}
