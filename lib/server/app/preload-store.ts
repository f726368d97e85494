/**
 * The first thing the app's boot starts (instrumentation.ts, before it loads boot.ts): when the store
 * will be the embedded one, reading PGlite's two big files and compiling its WebAssembly, off the
 * main thread (lib/store/pglite-assets.ts), while Next and the boot load their own code; the store's
 * opening then takes what was read instead of starting on it (open-embedded.ts).
 *
 * Owns: that choice. Does not: open the store (boot.ts, app-host.ts).
 */
import { preloadPgliteAssets } from '../../store/pglite-assets';

/** Starts the embedded store's preload unless the app is on Postgres (DATABASE_URL, as getStore decides); whether it did. */
export function preloadStore(env: Record<string, string | undefined> = process.env): boolean {
  if (env.DATABASE_URL) return false;
  preloadPgliteAssets();
  return true;
}
