// Next calls register() once per server start: it refuses bad settings (exit 1), then starts the app's
// start-up work (open the store, load the examples, resume interrupted runs) and returns, so the server
// answers its first request while that goes on (lib/server/app/boot.ts). Node runtime only (PGlite,
// child processes).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  // first, before boot.ts loads: the embedded store's files are read, and its WebAssembly compiled, while Next loads the page
  // (and while the settings are checked: it only reads PGlite's own files)
  (await import('./lib/server/app/preload-store')).preloadStore();
  // before the store opens: a bad setting stops the server, each named (as npm start does before it builds), for an
  // app started with `next start` directly (lib/server/app/start-settings.ts); 7-26 ms here, nearly all of it loading modules boot.ts loads next (host.ts)
  await (await import('./lib/server/app/start-settings')).refuseBadSettings();
  // the store check, where the proxy (built apart from the app) finds it: pages answer 503 while the store is down
  await import('./lib/server/ops/store-status');
  const { boot } = await import('./lib/server/app/boot');
  void boot();
}
