/**
 * Whether the app's store answers right now, for its pages: while the
 * database is away (restarting, down, unreachable) every page says so instead
 * of failing, and the API answers 503 (route.ts maps store_unreachable).
 */
import { appHost } from '../app/app-host';

export type StoreStatus = { reachable: true } | { reachable: false; message: string };

export async function storeStatus(): Promise<StoreStatus> {
  try {
    const host = await appHost();
    await host.store.ping();
    return { reachable: true };
  } catch (e) {
    return { reachable: false, message: (e as Error).message };
  }
}
