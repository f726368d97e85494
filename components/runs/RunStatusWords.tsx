// How a run went, as the runs list's Status column says it (and the home page's Last run, which says
// the same): what failed in the error's own words and where, its status, an outcome its status does
// not say (`completed · blocked`), and "needs attention" when it does. A blocked run leads with what
// blocked it: `blocked by stage path_guard: denied call 2 (…)`, its report's words. A failed run a
// fork took on and completed keeps its status and says which run took it on, instead of "needs attention".
import Link from 'next/link';
import type { RunListItemView } from '@/lib/views';
import { StatusPill } from '@/components/common/StatusPill';
import { attentionOf, failureWords } from './run-words';
import { blockedByWords } from '@/lib/views/blocked-by';
import styles from './RunList.module.css';

export type RunStatusFacts = Pick<RunListItemView, 'status' | 'outcome' | 'needsAttention' | 'failedAt' | 'errorMessage'> & Partial<Pick<RunListItemView, 'blockedBy' | 'takenOnBy'>>;

export function RunStatusWords({ r }: { r: RunStatusFacts }) {
  const attention = attentionOf(r);
  const words = attention ? failureWords(r) : null;
  const blocked = attention === 'blocked' && r.blockedBy ? blockedByWords(r.blockedBy) : null;
  return (
    <>
      {/* a run that needs attention leads with what failed, in the error's own words (as its report
          says it), then where; its status follows */}
      {attention && (words || r.failedAt) ? (
        <span className={styles.failure} title={r.errorMessage ?? undefined}>
          {words ? <span className={styles.failureWords}>{words}</span> : null}
          {words && r.failedAt ? ' at ' : null}
          {r.failedAt ? <code>{r.failedAt}</code> : null}
        </span>
      ) : null}
      {/* a blocked run has no error: what blocked it, its reason clamped as an error is (whole in the title) */}
      {blocked && !words && !r.failedAt ? (
        <span className={styles.failure} title={blocked} data-blocked-by>
          <span className={styles.failureWords}>{blocked}</span>
        </span>
      ) : null}
      <StatusPill status={r.status} />
      {r.outcome && r.outcome !== 'succeeded' && r.outcome !== r.status ? <span className={styles.outcome}> · {r.outcome}</span> : null}
      {attention ? (
        <span className={styles.attention} title={r.errorMessage ?? undefined}>
          {' '}
          needs attention
        </span>
      ) : null}
      {r.takenOnBy ? <TakenOnBy runId={r.takenOnBy} className={styles.takenOn} /> : null}
    </>
  );
}

/** "taken on by <run>, completed": the fork that took a run needing attention on and completed (the runs list's row, the studio's recent runs) */
export function TakenOnBy({ runId, className }: { runId: string; className?: string }) {
  return (
    <span className={className} data-taken-on-by={runId} title="A fork of this run completed: it no longer needs attention">
      {' '}
      taken on by{' '}
      <Link href={`/runs/${encodeURIComponent(runId)}`} className={styles.mono}>
        {runId}
      </Link>
      , completed
    </span>
  );
}
