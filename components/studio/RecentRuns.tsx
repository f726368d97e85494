'use client';
// The skill's recent runs, under the run panel: each links to its run page with its status, and
// says why it needs attention (where it failed; blocked, for a completed run a stage blocked, and by
// which stage and why) when it does.
import { memo } from 'react';
import Link from 'next/link';
import type { RunListItemView } from '@/lib/views';
import { RelativeTime } from '@/components/common/RelativeTime';
import { StatusPill } from '@/components/common/StatusPill';
import { attentionOf } from '@/components/runs/run-words';
import { TakenOnBy } from '@/components/runs/RunStatusWords';
import { blockedByWords, deniedCallWords } from '@/lib/views/blocked-by';
import { cutText } from '@/lib/kernel/cut-text';
import { RerunWithLatest } from './RerunWithLatest';
import styles from './Studio.module.css';

/** characters of a denial's reason this short list shows (the title has the row's whole) */
const REASON_CHARS = 120;
const shortReason = (reason: string) => cutText(reason, REASON_CHARS);

/** `latest`: the skill's latest saved version (null while unknown): a run that failed at a step on another is offered a rerun with it */
type Props = { skill: string; runs: RunListItemView[] | null; error: Error | null; now: number; latest?: string | null };

/** a run taken on from its failed step with the latest version: it failed (or a step aborted it) at a step, on another version, and no fork of it completed yet */
const canRerunWith = (r: RunListItemView, latest: string | null | undefined): latest is string =>
  !!latest && !!r.failedAt && (r.status === 'failed' || r.status === 'aborted') && !r.takenOnBy && r.version !== null && r.version !== latest;

function RecentRunsView({ skill, runs, error, now, latest = null }: Props) {
  return (
    <section className={styles.recentRuns} aria-labelledby="recent-runs-title">
      <div className={styles.recentHead}>
        <h2 id="recent-runs-title">Recent runs</h2>
        {runs?.length ? <Link href={`/runs?skill=${encodeURIComponent(skill)}`}>all runs of {skill}</Link> : null}
      </div>
      {error ? (
        <p className="form-error">The runs could not be read: {error.message}</p>
      ) : runs === null ? (
        <p className={styles.muted}>Loading…</p>
      ) : runs.length === 0 ? (
        <p className={styles.muted}>No runs yet: press Run.</p>
      ) : (
        <ul aria-label="Recent runs" className={styles.recentList}>
          {runs.map((r) => {
            const attention = attentionOf(r);
            const blocked = attention === 'blocked' ? r.blockedBy : null;
            return (
              <li key={r.runId} data-attention={attention ?? undefined}>
                <Link href={`/runs/${encodeURIComponent(r.runId)}`} className={styles.recentId}>
                  {r.runId}
                </Link>{' '}
                <StatusPill status={r.status} />
                {attention ? (
                  <span className={styles.recentFailure} title={r.errorMessage ?? (blocked ? blockedByWords(blocked) : undefined)}>
                    {' '}
                    needs attention{r.failedAt ? ` at ${r.failedAt}` : attention === 'blocked' ? ' (blocked)' : ''}
                    {/* what blocked it, as the report's summary says it ("Completed, but blocked: stage … denied call …") */}
                    {blocked && !r.failedAt ? `: ${deniedCallWords({ ...blocked, reason: shortReason(blocked.reason) })}` : null}
                  </span>
                ) : r.takenOnBy ? (
                  <TakenOnBy runId={r.takenOnBy} className={styles.muted} />
                ) : null}
                {/* the row's time, not the fork's ("…, completed · just now") */}
                {!attention && r.takenOnBy ? ' · ' : ' '}
                <RelativeTime ms={r.createdAt} now={now} className={styles.muted} />
                {canRerunWith(r, latest) && r.failedAt ? (
                  <>
                    {' '}
                    <RerunWithLatest runId={r.runId} failedAt={r.failedAt} latest={latest} className={styles.recentRerun} />
                  </>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** Redrawn only when its props change (the studio renders again at every keystroke). */
export const RecentRuns = memo(RecentRunsView);
