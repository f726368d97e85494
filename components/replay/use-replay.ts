'use client';
// Replaying a run from its page: `POST /api/runs/<id>/replay` against the skill's latest version.
// The replay is a run of its own, derived from this one, so the run's view is read again after it
// (its list of replays and forks gains one).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes } from '@/lib/api/routes';
import { callRoute } from '@/lib/client/api';
import { routeKey } from '@/lib/client/queries';

export function useReplay(runId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['replay', runId],
    mutationFn: () => callRoute(routes.replayRun, { params: { id: runId }, body: {} }),
    onSettled: () => client.invalidateQueries({ queryKey: routeKey(routes.getRun, { params: { id: runId } }) }),
  });
}

export type ReplayState = ReturnType<typeof useReplay>;
