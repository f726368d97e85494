// How a run went, as the runs list's Status column says it (and the home page's Last run, which says
// the same): what failed in the error's own words and where, its status, an outcome its status does
// not say (`completed · blocked`), and "needs attention" when it does. A blocked run leads with what
// blocked it: `blocked by stage path_guard: denied call 2 (…)`, its report's words.
import type { RunListItemView } from '@/lib/views';
import { StatusPill } from '@/components/common/StatusPill';
import { attentionOf, failureWords } from './run-words';
import { blockedByWords } from '@/lib/views/blocked-by';
import styles from './RunList.module.css';

export type RunStatusFacts = Pick<RunListItemView, 'status' | 'outcome' | 'needsAttention' | 'failedAt' | 'errorMessage'> & Partial<Pick<RunListItemView, 'blockedBy'>>;

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
    </>
  );
}
