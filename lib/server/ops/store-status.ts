/**
 * Whether the app's store answers right now, for its pages: while the
 * database is away (restarting, down, unreachable) every page says so instead
 * of failing, naming the store in use — the embedded one's data directory
 * (STAGECRAFT_DATA_DIR), or DATABASE_URL's database and server, never its
 * password — and answers 503 (proxy.ts asks this check through
 * store-status-registry.ts); the API answers 503 too (route.ts maps
 * store_unreachable).
 */
import { appHost } from '../app/app-host';
import { storeWhere } from './store-where';
import { registerStoreStatus, type StoreStatus } from './store-status-registry';

export type { StoreStatus };

/** `reason`: why it cannot be reached, in a line (the error's own message says what to do, which the page says itself) */
export async function storeStatus(): Promise<StoreStatus> {
  try {
    const host = await appHost();
    await host.store.ping();
    return { reachable: true };
  } catch (e) {
    const details = (e as { details?: { reason?: unknown } }).details;
    const reason = typeof details?.reason === 'string' ? details.reason : (e as Error).message;
    return { reachable: false, reason, ...storeWhere(process.env, process.cwd()) };
  }
}

registerStoreStatus(storeStatus);
