/**
 * How proxy.ts asks whether the store answers. The proxy runs in the server's process but is built
 * apart from the app (its own bundle, without the store's modules), so it cannot open the store or
 * share the app's module instances; the app puts its check on the process's global object under a
 * registered symbol (store-status.ts, from instrumentation.ts at start), and the proxy reads it here.
 * No imports: this module is what the proxy's bundle takes of the store.
 */
export type StoreStatus = { reachable: true } | { reachable: false; reason: string; where: string; isEmbedded: boolean };

const KEY = Symbol.for('stagecraft.storeStatus');
type Holder = { [KEY]?: () => Promise<StoreStatus> };

export function registerStoreStatus(check: () => Promise<StoreStatus>): void {
  (globalThis as Holder)[KEY] = check;
}

/** the app's check, once the app has put it there (null before: the proxy lets the request through) */
export function registeredStoreStatus(): (() => Promise<StoreStatus>) | null {
  return (globalThis as Holder)[KEY] ?? null;
}
