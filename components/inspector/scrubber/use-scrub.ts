'use client';
/**
 * The scrubber's data: the state at the step shown and at the one before it
 * (for the diff), both from the server's fold (`GET …/state?seq=K`) through
 * TanStack Query. A state at K never changes once event K is recorded, so it
 * is cached for good; the neighbours are fetched ahead (K+1..K+3, K-1, K-2: a held key outruns one request), and
 * while a new step loads the last one stays on screen (no flash). A slider
 * drag asks only for where it rests (DRAG_DEBOUNCE_MS); keys and buttons ask
 * at once.
 *
 * Owns: which states are read and when. Does not: fold anything.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { routes } from '@/lib/api/routes';
import { routeQuery } from '@/lib/client/queries';
import type { RunStateView } from '@/lib/views/inspector';

/** how long a dragged slider must rest before its step is read */
export const DRAG_DEBOUNCE_MS = 80;

const stateQuery = (runId: string, seq: number) => ({ ...routeQuery(routes.getRunState, { params: { id: runId }, query: { seq } }), staleTime: Infinity, gcTime: 5 * 60_000, retry: 1 });

/** the value once it has stayed the same for `ms` */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

export type Scrub = {
  /** the state on screen: the step asked for, or the one before while it loads */
  state: RunStateView | undefined;
  /** the state after the event before it (for the diff), when it is loaded */
  before: RunStateView | undefined;
  isLoading: boolean;
  error: string | null;
};

export function useScrub(runId: string, seq: number, lastSeq: number, isDragging: boolean): Scrub {
  const client = useQueryClient();
  const settled = useSettled(seq, DRAG_DEBOUNCE_MS);
  const wanted = Math.max(0, Math.min(lastSeq, isDragging ? settled : seq));
  const current = useQuery({ ...stateQuery(runId, wanted), placeholderData: keepPreviousData });
  const shown = current.data;
  const prev = useQuery({ ...stateQuery(runId, Math.max(0, (shown?.seq ?? wanted) - 1)), enabled: (shown?.seq ?? 0) > 0 });

  // the neighbours, fetched ahead so ←/→ answer from the cache
  const at = shown?.seq;
  useEffect(() => {
    if (at === undefined || isDragging) return;
    for (const k of [at + 1, at + 2, at + 3, at - 1, at - 2]) if (k >= 0 && k <= lastSeq) void client.prefetchQuery(stateQuery(runId, k));
  }, [at, lastSeq, runId, client, isDragging]);

  const before = shown && shown.seq > 0 && prev.data?.seq === shown.seq - 1 ? prev.data : undefined;
  return { state: shown, before, isLoading: current.isFetching, error: current.error ? current.error.message : null };
}

/**
 * A live run's last seq grows: a scrubber left at the end follows it (asks the page, through
 * `onSeq`, for the new end); one moved back stays where it was.
 */
export function useFollowEnd(seq: number, lastSeq: number, onSeq: (seq: number) => void): void {
  // the end the scrubber last knew: when it grows, a seq that stood there moves with it
  const end = useRef(lastSeq);
  useEffect(() => {
    const wasAtEnd = seq >= end.current;
    end.current = lastSeq;
    if (wasAtEnd && seq < lastSeq) onSeq(lastSeq);
  }, [seq, lastSeq, onSeq]);
}
