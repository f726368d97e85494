/**
 * The runs chart's numbers (`GET /api/runs/stats`): the runs the list's
 * filters select, counted by status per time bucket, with the p50/p95 duration
 * of those that ended and the most frequent failure points. Computed in SQL
 * (lib/store/run-index.ts), so 10,000 runs cost one aggregate read of them (and one of
 * the failed runs' index), not a transfer.
 */
import type { RunFilterQuery, RunStatsView } from '../../views';
import { runSearchOf, type RunIndexHost } from './list-runs';

/** how many buckets the chart is drawn with when the caller does not say */
export const DEFAULT_RUN_BUCKETS = 48;

export async function runStats(host: RunIndexHost, q: RunFilterQuery & { buckets?: number } = {}): Promise<RunStatsView> {
  const s = await host.store.runIndex.stats(runSearchOf(q), { buckets: q.buckets ?? DEFAULT_RUN_BUCKETS });
  return {
    total: s.total,
    needsAttention: s.needsAttention,
    byStatus: s.byStatus,
    bucketMs: s.bucketMs,
    buckets: s.buckets.map((b) => ({ start: b.start, ...b.counts })),
    duration: s.duration,
    failures: s.failures,
    anyFailed: s.anyFailed,
  };
}
