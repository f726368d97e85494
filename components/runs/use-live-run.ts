'use client';
// A run as it goes: its view in the query cache (seeded with what the server rendered), kept
// current by the run's event stream (server-sent events) rather than by polling. Each new event is
// pushed into the cache under `liveEventsKey(runId)` (for views that show events as they come) and
// the run's view is read again at most every REFRESH_MS while events arrive; on `end`, once more,
// and the stream is closed. A dropped connection is retried by the browser from the last seq it had.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { routes } from '@/lib/api/routes';
import { openRouteStream } from '@/lib/client/api';
import { routeKey, routeQuery } from '@/lib/client/queries';
import type { EventView, RunView } from '@/lib/views';

/** the least time between two reads of the run's view while its events stream in */
export const REFRESH_MS = 300;

/** where the events a page has seen arrive live are kept, in seq order */
export const liveEventsKey = (runId: string) => ['live-events', runId] as const;

export function useLiveRun(initial: RunView): { run: RunView; connection: 'live' | 'reconnecting' | 'closed'; error: string | null } {
  const id = initial.runId;
  const client = useQueryClient();
  const query = useQuery({ ...routeQuery(routes.getRun, { params: { id } }), initialData: initial });
  const run = query.data;
  const isRunning = run.status === 'running' || run.status === 'queued';
  const [connection, setConnection] = useState<'live' | 'reconnecting' | 'closed'>(initial.status === 'running' || initial.status === 'queued' ? 'live' : 'closed');

  useEffect(() => {
    if (!isRunning) return;
    const key = routeKey(routes.getRun, { params: { id } });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const readSoon = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void client.invalidateQueries({ queryKey: key });
      }, REFRESH_MS);
    };
    const close = openRouteStream(
      routes.streamRun,
      { params: { id }, query: { after: initial.eventCount } },
      {
        message: (e: EventView) => {
          setConnection('live');
          client.setQueryData<EventView[]>(liveEventsKey(id), (seen = []) => (seen.length && seen[seen.length - 1].seq >= e.seq ? seen : [...seen, e]));
          readSoon();
        },
        end: () => {
          close();
          clearTimeout(timer);
          setConnection('closed');
          void client.invalidateQueries({ queryKey: key });
        },
        onError: () => setConnection('reconnecting'),
      },
    );
    return () => {
      close();
      clearTimeout(timer);
    };
  }, [isRunning, id, client, initial.eventCount]);

  return { run, connection, error: query.error?.message ?? null };
}
