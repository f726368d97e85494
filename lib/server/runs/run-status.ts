/**
 * A run's status alone, for callers that only ask whether it exists or has ended (an event page, a
 * stream, the admission at start): the store's getRunStatus, which leaves the run's payloads unread,
 * or getRun where a store has none. getRun reads and parses the run's input, output and report — a
 * 16 MB output is a second of the embedded store's thread, every other request waiting.
 */
import type { RunStatus, StorePort } from '../../kernel/ports';

export async function runStatusOf(store: StorePort, runId: string): Promise<RunStatus | null> {
  if (store.getRunStatus) return store.getRunStatus(runId);
  return (await store.getRun(runId))?.status ?? null;
}
