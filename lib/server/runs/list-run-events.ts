/** A page of a run's event log: `GET /api/runs/<id>/events?after=&limit=` (the inspector's scrubber pages through it). */
import { RunNotFoundError } from '../../kernel/errors';
import type { EventPageView } from '../../views';
import type { Host } from '../host';

export const MAX_EVENT_PAGE = 1000;

export async function listRunEvents(host: Pick<Host, 'store'>, runId: string, opts: { after?: number; limit?: number } = {}): Promise<EventPageView> {
  if (!(await host.store.getRun(runId))) throw new RunNotFoundError(runId);
  const limit = opts.limit ?? 200;
  const after = opts.after ?? 0;
  const all = await host.store.readEvents(runId, after);
  const events = all.slice(0, limit).map((e) => ({ seq: e.seq, type: e.type, at: e.at, data: e.data }));
  return { runId, events, next: all.length > limit ? events[events.length - 1].seq : null };
}
