// Where the compare view of two runs is, and which run a run is compared with first.
import type { RunView } from '@/lib/views';

/** the compare view of two runs: `a` on the left (the earlier, or the parent), `b` on the right */
export const compareHref = (a: string, b: string) => `/runs/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;

/**
 * A run beside its parent (a replay or fork of it), else beside its newest replay or fork, else (`?b=`
 * alone) beside the last completed run of its skill before it, which the compare view finds.
 */
export function compareTargetHref(run: Pick<RunView, 'runId' | 'kind' | 'parentRunId' | 'derivedRuns'>): string {
  if (run.parentRunId && (run.kind === 'fork' || run.kind === 'replay')) return compareHref(run.parentRunId, run.runId);
  const newest = run.derivedRuns[0];
  if (newest) return compareHref(run.runId, newest.runId);
  return `/runs/compare?b=${encodeURIComponent(run.runId)}`;
}
