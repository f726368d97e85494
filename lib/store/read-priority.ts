/**
 * Which database work goes first on the embedded store: a request someone is
 * waiting on to read (`GET /api/…`) is `interactive`; everything else — runs
 * being driven, runs being recorded — is `background`. The embedded database
 * does one thing at a time (embedded-line.ts), so without this a page read
 * would wait behind every commit that 200 runs queued before it.
 *
 * The priority travels with the async context (AsyncLocalStorage), so the
 * code between the route and the query needs no parameter. The storage is
 * kept on globalThis: Next bundles the start-up hook and the routes
 * separately, and the store (opened by one) must see what the other sets.
 *
 * Owns: the priority and how code asks for one. Does not: order anything
 * (embedded-line.ts does); Postgres serves reads on its own connections.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export type DbPriority = 'interactive' | 'background';

const KEY = Symbol.for('stagecraft.dbPriority');

function storage(): AsyncLocalStorage<DbPriority> {
  const g = globalThis as { [KEY]?: AsyncLocalStorage<DbPriority> };
  return (g[KEY] ??= new AsyncLocalStorage<DbPriority>());
}

/** Runs `fn` with its database work ahead of background work (a read someone waits on). */
export function asInteractive<T>(fn: () => T): T {
  return storage().run('interactive', fn);
}

/** The priority of the work now running (background unless someone said otherwise). */
export function currentPriority(): DbPriority {
  return storage().getStore() ?? 'background';
}
