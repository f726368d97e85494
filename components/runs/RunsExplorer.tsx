'use client';
// The runs page below its header: the filters (read from and written to the URL), the chart of the
// filtered runs over time, and the table, a keyset page at a time as it is scrolled. The first
// page and the chart's numbers come from the server, painted before any script; a filter change is
// a new query in the cache (TanStack Query), with the list it replaces kept in view, marked busy,
// until the answer comes. While any listed run is running or queued, both are read again every
// few seconds, then no more.
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import { useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useState } from 'react';
import { routes } from '@/lib/api/routes';
import { callRoute } from '@/lib/client/api';
import { routeKey, routeQuery } from '@/lib/client/queries';
import type { RunPageView, RunStatsView } from '@/lib/views';
import { Spinner } from '@/components/common/Spinner';
import { CHART_HEIGHT_PX, durationSummary } from './chart-data';
import { RunFilterBar } from './RunFilterBar';
import { RunListEmpty } from './RunListEmpty';
import { RunTable } from './RunTable';
import { RUN_CHART_BUCKETS, RUN_PAGE_SIZE, isFiltered, parseRunFilters, runFiltersSearch, runsHref, toRunQuery, type RunFilters } from './run-filters';
import styles from './RunList.module.css';
import { plural } from '@/lib/kernel/plural';

/** how often a list with running runs is read again */
export const LIVE_REFRESH_MS = 2_000;

const RunsChart = dynamic(() => import('./RunsChart'), {
  ssr: false,
  loading: () => (
    <div className={styles.chartLoading} style={{ height: CHART_HEIGHT_PX }}>
      Loading the chart…
    </div>
  ),
});

export type RunsInitial = { filters: RunFilters; now: number; page: RunPageView; stats: RunStatsView };

type Props = { initial: RunsInitial; skills: string[]; liveSkills: string[] };

const isOpen = (status: string) => status === 'running' || status === 'queued';

export function RunsExplorer({ initial, skills, liveSkills }: Props) {
  const search = useSearchParams().toString();
  const { filters, problems } = useMemo(() => parseRunFilters(new URLSearchParams(search)), [search]);
  // the URL takes a moment to say a change (the router commits it in a transition): until it does,
  // the controls show the change, not the filters before it (a box ticked would untick, then tick)
  const [pending, setPending] = useState<RunFilters | null>(null);
  if (pending && runFiltersSearch(pending) === runFiltersSearch(filters)) setPending(null);
  const shown = pending ?? filters;
  // the moment a relative range ("last 24 hours") reaches back from: the server's, then each change's
  const [clock, setClock] = useState(initial.now);
  const query = useMemo(() => toRunQuery(filters, clock), [filters, clock]);
  const isInitial = clock === initial.now && runFiltersSearch(filters) === runFiltersSearch(initial.filters);

  const change = useCallback(
    (next: RunFilters) => {
      setClock(Date.now());
      setPending(next);
      const href = runsHref(next);
      // typing a search replaces the entry; any other change can be gone back from
      const onlySearch = runFiltersSearch({ ...next, q: undefined }) === runFiltersSearch({ ...shown, q: undefined });
      if (onlySearch) window.history.replaceState(null, '', href);
      else window.history.pushState(null, '', href);
    },
    [shown],
  );

  const list = useInfiniteQuery({
    queryKey: [...routeKey(routes.listRuns, { query: { ...query, limit: RUN_PAGE_SIZE } }), 'pages'],
    queryFn: ({ pageParam, signal }) => callRoute(routes.listRuns, { query: { ...query, limit: RUN_PAGE_SIZE, cursor: pageParam ?? undefined } }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    initialData: isInitial ? { pages: [initial.page], pageParams: [null] } : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.pages.some((p) => p.runs.some((r) => isOpen(r.status))) ? LIVE_REFRESH_MS : false),
  });
  const runs = useMemo(() => list.data?.pages.flatMap((p) => p.runs) ?? [], [list.data]);
  const isLive = runs.some((r) => isOpen(r.status));
  const stats = useQuery({
    ...routeQuery(routes.runStats, { query: { ...query, buckets: RUN_CHART_BUCKETS } }),
    initialData: isInitial ? initial.stats : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: isLive ? LIVE_REFRESH_MS : false,
  });

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const onNearEnd = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const pickBucket = useCallback((from: number, to: number) => change({ ...shown, range: undefined, from, to }), [change, shown]);

  const filtered = isFiltered(filters);
  const isBusy = list.isPlaceholderData || stats.isPlaceholderData || (list.isPending && !list.data);
  const total = stats.data && !stats.isPlaceholderData ? stats.data.total : null;
  const failures = (stats.data?.failures ?? initial.stats.failures).map((f) => f.at);
  const anyFailed = (stats.data ?? initial.stats).anyFailed;
  const nothingYet = !filtered && !isBusy && runs.length === 0 && (total ?? 0) === 0;

  return (
    <>
      {problems.map((p) => (
        <p key={p} className="form-error" role="alert">
          {p}
        </p>
      ))}
      {nothingYet ? (
        <RunListEmpty />
      ) : (
        <>
          <RunFilterBar filters={shown} onChange={change} skills={skills} failures={failures} anyFailed={anyFailed} />
          <section className={styles.chart} aria-label="Runs over time" aria-busy={isBusy || undefined}>
            <div className={styles.chartHead}>
              <h2>Runs over time</h2>
              {stats.data ? (
                <p className={styles.chartFigures}>
                  <span>
                    {plural(stats.data.total, 'run')}
                  </span>
                  <span data-attention={stats.data.needsAttention > 0 || undefined}>{stats.data.needsAttention} need attention</span>
                  {stats.data.total ? <span>{durationSummary(stats.data)}</span> : null}
                </p>
              ) : null}
            </div>
            {stats.data && stats.data.total > 0 ? (
              <RunsChart stats={stats.data} onPickBucket={pickBucket} />
            ) : stats.data && !stats.error ? (
              <p className={styles.chartNone}>No runs to draw.</p>
            ) : (
              <div className={styles.chartLoading} style={{ height: CHART_HEIGHT_PX }}>
                {stats.error ? `The chart could not be read: ${stats.error.message}` : 'Loading the chart…'}
              </div>
            )}
          </section>
          <div className={styles.listHead}>
            <p className={styles.count} role="status">
              {isBusy ? (
                <>
                  <Spinner /> Loading runs…
                </>
              ) : total !== null ? (
                `Showing ${runs.length} of ${plural(total, 'run')}${filtered ? ' matching the filters' : ''}, newest first`
              ) : null}
            </p>
            {isLive ? (
              <p className={styles.live}>
                <span className={styles.liveDot} aria-hidden="true" />
                Updating live
              </p>
            ) : null}
          </div>
          {runs.length === 0 && !isBusy ? (
            <RunListEmpty filters={shown} liveSkills={liveSkills} />
          ) : (
            <div aria-busy={isBusy || undefined} className={isBusy ? styles.busy : undefined}>
              <RunTable runs={runs} total={total} liveSkills={liveSkills} now={initial.now} onNearEnd={onNearEnd} />
            </div>
          )}
          {isFetchingNextPage ? (
            <p className={styles.more} role="status">
              <Spinner /> Loading more runs…
            </p>
          ) : null}
          {list.error ? (
            <p className="form-error" role="alert">
              The list could not be read: {list.error.message}
            </p>
          ) : null}
        </>
      )}
    </>
  );
}
