'use client';
// The skill's recent runs (the runs list's API, narrowed to the skill), read again while one of them
// is running, and where the last ended one failed: its failure point, with the phase a failed
// stage ran in (from that run's report), for the diagram to mark.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { routes } from '@/lib/api/routes';
import { routeQuery } from '@/lib/client/queries';
import type { RunListItemView } from '@/lib/views';
import { isStagePoint, type RunFailure } from '../failed-node';

/** how many runs the panel lists */
export const RECENT_RUNS = 6;
/** how often the list is read again while a run of it is running */
const LIVE_REFRESH_MS = 3_000;

const isOpen = (r: RunListItemView) => r.status === 'running' || r.status === 'queued';

export function useRecentRuns(skill: string) {
  const list = useQuery({
    ...routeQuery(routes.listRuns, { query: { skill, limit: RECENT_RUNS } }),
    refetchInterval: (q) => (q.state.data?.runs.some(isOpen) ? LIVE_REFRESH_MS : false),
  });
  const runs = list.data?.runs ?? null;
  const last = runs?.find((r) => !isOpen(r)) ?? null;
  const failedAt = last?.needsAttention ? last.failedAt : null;
  // a failed stage's card is the phase it ran in: the run's report says which
  const report = useQuery({
    ...routeQuery(routes.getRun, { params: { id: last?.runId ?? '-' } }),
    enabled: failedAt !== null && isStagePoint(failedAt),
    staleTime: Infinity,
  });
  const runId = last?.runId ?? null;
  const phase = report.data?.report?.failed_stage?.phase ?? null;
  // the same object while it says the same (the diagram redraws only when it changes)
  const failure = useMemo((): RunFailure | null => (runId && failedAt ? { runId, at: failedAt, phase } : null), [runId, failedAt, phase]);
  return { runs, error: list.error, last, failure };
}
