/**
 * Whether the app's store answers right now, for its pages: while the
 * database is away (restarting, down, unreachable) every page says so instead
 * of failing, and the API answers 503 (route.ts maps store_unreachable).
 */
import { appHost } from '../app/app-host';

/** `reason`: why it cannot be reached, in a line (the error's own message says what to do, which the page says itself) */
export type StoreStatus = { reachable: true } | { reachable: false; reason: string };

export async function storeStatus(): Promise<StoreStatus> {
  try {
    const host = await appHost();
    await host.store.ping();
    return { reachable: true };
  } catch (e) {
    const details = (e as { details?: { reason?: unknown; location?: unknown } }).details;
    const reason = typeof details?.reason === 'string' ? `${typeof details.location === 'string' ? `${details.location}: ` : ''}${details.reason}` : (e as Error).message;
    return { reachable: false, reason };
  }
}
