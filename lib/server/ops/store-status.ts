/**
 * Whether the app's store answers right now, for its pages: while the
 * database is away (restarting, down, unreachable) every page says so instead
 * of failing, naming the store in use — the embedded one's data directory
 * (STAGECRAFT_DATA_DIR), or DATABASE_URL's database and server, never its
 * password — and answers 503 (proxy.ts asks this check through
 * store-status-registry.ts); the API answers 503 too (route.ts maps
 * store_unreachable).
 */
import { StoreUnavailableError } from '../../kernel/errors';
import { isConnectionError } from '../../store/connection-errors';
import { appHost } from '../app/app-host';
import { serverLog } from '../log';
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
    return downStatus(e);
  }
}

function downStatus(e: unknown): StoreStatus & { reachable: false } {
  const details = (e as { details?: { reason?: unknown } }).details;
  const reason = typeof details?.reason === 'string' ? details.reason : (e as Error).message;
  return { reachable: false, reason, ...storeWhere(process.env, process.cwd()) };
}

/**
 * What a page threw, when it says the store cannot be opened or reached (StoreUnavailableError, a lost
 * connection): the store's status for the page to show, said in one line of the server's log — the
 * error's message says what happened and what to do; a stack would say nothing more, and Next logs a
 * page's error whole. Null for any other error (a bug: the caller throws it on, stack and all).
 */
export function pageStoreDown(e: unknown, page?: string): (StoreStatus & { reachable: false }) | null {
  if (!(e instanceof StoreUnavailableError) && !isConnectionError(e)) return null;
  serverLog.warn(`stagecraft: a page could not be shown: ${(e as Error).message.replace(/\s*\n\s*/g, ' ')}${page ? ` (page ${page})` : ''}`);
  return downStatus(e);
}

registerStoreStatus(storeStatus);
