'use client';
// The runs list as it moves: the first page comes from the server (painted before any script), the
// rest a keyset page at a time ("Show more"), and while any listed run is running the list is read
// again every few seconds by the query cache (TanStack Query's refetchInterval), then no more.
import { useInfiniteQuery } from '@tanstack/react-query';
import { routes } from '@/lib/api/routes';
import { callRoute } from '@/lib/client/api';
import { routeKey } from '@/lib/client/queries';
import type { RunFilterQuery, RunPageView } from '@/lib/views';
import { RunList } from './RunList';
import styles from './RunList.module.css';

/** how often a list with running runs is read again */
export const LIVE_REFRESH_MS = 2_000;

type Props = { initial: RunPageView; filter: RunFilterQuery; pageSize: number; liveSkills: string[]; now: number };

export function RunListLive({ initial, filter, pageSize, liveSkills, now }: Props) {
  const list = useInfiniteQuery({
    queryKey: [...routeKey(routes.listRuns, { query: { ...filter, limit: pageSize } }), 'pages'],
    queryFn: ({ pageParam, signal }) => callRoute(routes.listRuns, { query: { ...filter, limit: pageSize, cursor: pageParam ?? undefined } }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    initialData: { pages: [initial], pageParams: [null] },
    refetchInterval: (q) => (q.state.data?.pages.some((p) => p.runs.some((r) => r.status === 'running' || r.status === 'queued')) ? LIVE_REFRESH_MS : false),
  });
  const runs = list.data.pages.flatMap((p) => p.runs);
  const isLive = runs.some((r) => r.status === 'running' || r.status === 'queued');
  return (
    <>
      {isLive ? (
        <p className={styles.live}>
          <span className={styles.liveDot} aria-hidden="true" />
          Updating live
        </p>
      ) : null}
      <RunList runs={runs} liveSkills={liveSkills} now={now} />
      {list.hasNextPage ? (
        <div className={styles.more}>
          <button type="button" className="btn" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
            {list.isFetchingNextPage ? 'Loading…' : `Show ${pageSize} more`}
          </button>
        </div>
      ) : null}
      {list.error ? (
        <p className="form-error" role="alert">
          The list could not be read again: {list.error.message}
        </p>
      ) : null}
    </>
  );
}
