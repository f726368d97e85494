// Next calls register() once per server start: open the store, load the
// examples, resume interrupted runs. Node runtime only (PGlite, child processes).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { boot } = await import('./lib/server/app/boot');
  await boot();
}
