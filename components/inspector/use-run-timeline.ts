'use client';
// The run's timeline in the query cache, a page of visits at a time (`?from=&limit=`): the page the
// server rendered (the one the run opens on) seeds its query; the pages the timeline has in view, or
// that hold the selected item, are read as they are wanted. Every page carries the whole run's report,
// failures and outline, so any one of them is the head the page draws from.
// While the run goes, its view (use-live-run.ts, fed by the event stream and read at most every
// REFRESH_MS) says how many events it has; when that moves past the timeline's last seq, or the run
// ends, the pages are read again — so the stream throttles it, and nothing polls.
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { routes } from '@/lib/api/routes';
import { routeKey, routeQuery } from '@/lib/client/queries';
import { TIMELINE_PAGE_VISITS, type RunTimelineView } from '@/lib/views';

export type Visit = RunTimelineView['visits'][number];

export type TimelinePages = {
  /** the newest page read: report, failures, outline, usage (its `visits` are its own window only) */
  head: RunTimelineView | null;
  /** every visit read so far, by its index in the outline */
  visits: ReadonlyMap<number, Visit>;
  error: string | null;
};

export const pageOfVisit = (index: number) => Math.floor(index / TIMELINE_PAGE_VISITS);

export function useRunTimeline(runId: string, initial: RunTimelineView | null, live: { eventCount: number; status: string }, wanted: readonly number[]): TimelinePages {
  const client = useQueryClient();
  const initialPage = initial ? pageOfVisit(initial.window.from) : 0;
  const pages = useMemo(() => [...new Set([initialPage, ...wanted])].sort((a, b) => a - b), [initialPage, wanted]);
  const { head, visits, error } = useQueries({
    queries: pages.map((p) => ({
      ...routeQuery(routes.getRunTimeline, { params: { id: runId }, query: { from: p * TIMELINE_PAGE_VISITS, limit: TIMELINE_PAGE_VISITS } }),
      ...(initial && p === initialPage ? { initialData: initial } : {}),
    })),
    combine: combinePages,
  });
  const isBehind = head !== null && (live.eventCount > head.lastSeq || live.status !== head.status);
  useEffect(() => {
    if (isBehind) void client.invalidateQueries({ queryKey: routeKey(routes.getRunTimeline, { params: { id: runId } }) });
  }, [isBehind, live.eventCount, live.status, client, runId]);
  return { head, visits, error };
}

/** the pages' answers as one timeline (module level: TanStack keeps its result while the answers stand) */
function combinePages(results: UseQueryResult<RunTimelineView, Error>[]): TimelinePages {
  let head: RunTimelineView | null = null;
  for (const r of results) if (r.data && (!head || r.data.lastSeq > head.lastSeq)) head = r.data;
  const visits = new Map<number, Visit>();
  // a live run's older page is drawn until its fresh answer comes; where two pages hold a visit, the newer wins
  const answered = results.flatMap((r) => (r.data ? [r.data] : [])).sort((a, b) => a.lastSeq - b.lastSeq);
  for (const d of answered) d.visits.forEach((v, i) => visits.set(d.window.from + i, v));
  return { head, visits, error: results.find((r) => r.error)?.error?.message ?? null };
}
