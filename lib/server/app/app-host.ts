/**
 * The app's host: the process's store (opened on first use), its skill
 * repository, and the folder versions are copied out to for runs — what every
 * page and route handler hands to lib/server. On the embedded store, it records
 * where the app listens beside the store's lock (lib/store/app-file.ts).
 */
import { getStore, type OpenedStore } from '../../store';
import { listeningUrl, recordApp } from '../../store/app-file';
import { startSpawner } from '../../sandbox/spawner';
import { hostFor, processDriver, type Host } from '../host';

/**
 * The host, once the store is open and the sandbox's spawner is up (the boot starts it; one that
 * failed to start is started again here): no run this host starts forks the server.
 */
export async function appHost(): Promise<Host & { store: OpenedStore }> {
  const [store] = await Promise.all([getStore(), startSpawner()]);
  // the embedded store is this server's alone: where it listens is written beside the lock, for the CLI
  const url = store.backend === 'pglite' ? listeningUrl(process.env) : null;
  if (url) recordApp(store.location, url);
  return { ...hostFor({ store, skills: store.skills, env: process.env, cwd: process.cwd(), driver: processDriver('app') }), store };
}

/** The example bundles that ship with the app. */
export function examplesDir(): string {
  return `${process.cwd()}/examples`;
}
