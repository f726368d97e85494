/**
 * The app's host: the process's store (opened on first use), its skill
 * repository, and the folder versions are copied out to for runs — what every
 * page and route handler hands to lib/server.
 */
import { getStore, type OpenedStore } from '../../store';
import { defaultBundlesDir, type Host } from '../host';

export async function appHost(): Promise<Host & { store: OpenedStore }> {
  const store = await getStore();
  const cwd = process.cwd();
  return { store, skills: store.skills, bundlesDir: defaultBundlesDir(process.env, cwd), env: process.env, cwd };
}

/** The example bundles that ship with the app. */
export function examplesDir(): string {
  return `${process.cwd()}/examples`;
}
