/**
 * How proxy.ts asks whether the store answers, and hands its answer on to the page. The proxy runs in
 * the server's process but is built apart from the app (its own bundle, without the store's modules),
 * so it cannot open the store or share the app's module instances; the app puts its check on the
 * process's global object under a registered symbol (store-status.ts, from instrumentation.ts at
 * start), and the proxy reads it here. The proxy then sets its answer on the request it forwards
 * (STORE_STATUS_HEADER, after deleting any a client sent, so none can be forged) and the layout reads
 * it there: one ping serves a page's status and its message.
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

/** the header of a forwarded page request that carries the proxy's answer (only the proxy sets it) */
export const STORE_STATUS_HEADER = 'x-stagecraft-store-status';

/** a status as that header's value (URI-encoded JSON: a reason may hold any character) */
export function storeStatusHeaderValue(status: StoreStatus): string {
  return encodeURIComponent(JSON.stringify(status));
}

function parseHeader(value: string | null): StoreStatus | null {
  if (!value) return null;
  try {
    const s = JSON.parse(decodeURIComponent(value)) as Record<string, unknown>;
    if (s.reachable === true) return { reachable: true };
    if (s.reachable === false && typeof s.reason === 'string' && typeof s.where === 'string' && typeof s.isEmbedded === 'boolean') {
      return { reachable: false, reason: s.reason, where: s.where, isEmbedded: s.isEmbedded };
    }
  } catch {
    // not the proxy's: asked afresh below
  }
  return null;
}

/**
 * The store's status for a page being rendered: the proxy's answer on the request when it gave one,
 * else `check` asked (a request the proxy did not ask for: before the app registered its check).
 */
export async function pageStoreStatus(requestHeaders: Pick<Headers, 'get'>, check: () => Promise<StoreStatus>): Promise<StoreStatus> {
  return parseHeader(requestHeaders.get(STORE_STATUS_HEADER)) ?? (await check());
}
