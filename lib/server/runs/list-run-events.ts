/** A page of a run's event log: `GET /api/runs/<id>/events?after=&limit=` (the inspector's scrubber pages through it). */
import { RunNotFoundError } from '../../kernel/errors';
import type { RunEvent } from '../../kernel/ports';
import type { EventPageView, EventView } from '../../views';
import type { Host } from '../host';
import { runStatusOf } from './run-status';

/** how many events a page holds when the caller does not say */
export const DEFAULT_EVENT_PAGE = 200;

export const eventView = (e: RunEvent): EventView => ({ seq: e.seq, type: e.type, at: e.at, data: e.data });

export async function listRunEvents(host: Pick<Host, 'store'>, runId: string, opts: { after?: number; limit?: number } = {}): Promise<EventPageView> {
  const limit = opts.limit ?? DEFAULT_EVENT_PAGE;
  if (!(await runStatusOf(host.store, runId))) throw new RunNotFoundError(runId);
  // one more than the page, in SQL: whether there is a next page is known without reading the rest of the log
  const read = await host.store.readEvents(runId, opts.after ?? 0, limit + 1);
  const events = read.slice(0, limit).map(eventView);
  return { runId, events, next: read.length > limit ? events[events.length - 1].seq : null };
}
