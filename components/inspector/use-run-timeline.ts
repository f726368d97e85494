'use client';
// The run's timeline in the query cache, seeded with what the server rendered. While the run goes,
// its view (use-live-run.ts, fed by the event stream and read at most every REFRESH_MS) says how
// many events it has; when that moves past the timeline's last seq, or the run ends, the timeline
// is read again — so the stream throttles it, and nothing polls.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { routes } from '@/lib/api/routes';
import { routeKey, routeQuery } from '@/lib/client/queries';
import type { RunTimelineView } from '@/lib/views';

export function useRunTimeline(runId: string, initial: RunTimelineView | null, live: { eventCount: number; status: string }) {
  const client = useQueryClient();
  const query = useQuery({ ...routeQuery(routes.getRunTimeline, { params: { id: runId } }), ...(initial ? { initialData: initial } : {}) });
  const timeline = query.data ?? null;
  const isBehind = timeline !== null && (live.eventCount > timeline.lastSeq || live.status !== timeline.status);
  useEffect(() => {
    if (isBehind) void client.invalidateQueries({ queryKey: routeKey(routes.getRunTimeline, { params: { id: runId } }) });
  }, [isBehind, live.eventCount, live.status, client, runId]);
  return { timeline, error: query.error?.message ?? null, isLoading: query.isLoading };
}
