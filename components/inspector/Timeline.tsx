'use client';
// The `Timeline` region: each phase visit (its preprocessor steps, its model rounds, its finish),
// then the postprocessor. A round reads left to right as it happened and wraps to the width it
// has: the prompt-assembly lane, the model turn, post-model, pre-tool, the tool calls, post-tool,
// finalize — each lane a `Stage traces` list. Tokens, latency (and cost, given a price) per round
// and per visit. `Next failure` (key n) and `Failed only` move between and keep to the failures.
import type { RunTimelineView } from '@/lib/views';
import { RoundView, StepList } from './TimelineParts';
import { usageText } from './timeline-index';
import styles from './Inspector.module.css';

export type TimelineSelection = {
  selected: string | null;
  /** the item the scrubber's event belongs to */
  scrubbed: string | null;
  onSelect: (id: string) => void;
  /** null: everything shown; else the ids the failed-only filter keeps */
  scope: Set<string> | null;
};

type Props = TimelineSelection & {
  timeline: RunTimelineView;
  isFailedOnly: boolean;
  onFailedOnly: (on: boolean) => void;
  onNextFailure: () => void;
};

export function Timeline({ timeline: t, isFailedOnly, onFailedOnly, onNextFailure, ...sel }: Props) {
  const currency = t.price?.currency ?? null;
  const failures = t.failures.length;
  const visits = sel.scope ? t.visits.filter((v) => sel.scope!.has(v.id)) : t.visits;
  const showPost = t.post && (!sel.scope || sel.scope.has(t.post.id));
  return (
    <section className={styles.timeline} aria-labelledby="timeline-title">
      <div className={styles.timelineHead}>
        <h2 id="timeline-title">Timeline</h2>
        <span className={styles.dim}>{usageText(t.usage, currency)}</span>
        <span className={styles.spacer} />
        <span className={failures ? styles.failCount : styles.dim}>{failures === 1 ? '1 failure' : `${failures} failures`}</span>
        <button type="button" className="btn btn-sm" onClick={onNextFailure} disabled={failures === 0} aria-keyshortcuts="n" title="Next failure (n)">
          Next failure <kbd aria-hidden="true">n</kbd>
        </button>
        <label className={styles.check}>
          <input type="checkbox" checked={isFailedOnly} onChange={(e) => onFailedOnly(e.target.checked)} /> Failed only
        </label>
      </div>
      {visits.length === 0 && !showPost ? (
        <p className={styles.dim}>{isFailedOnly ? 'Nothing failed, was refused or denied.' : t.status === 'queued' ? 'The run has not started yet.' : 'Nothing recorded yet.'}</p>
      ) : null}
      {visits.map((v) => (
        <article key={v.id} className={styles.visit} aria-label={`Phase ${v.phase}, visit ${v.visit}`} data-status={v.status}>
          <header className={styles.visitHead}>
            <h3>
              {v.phase} <span className={styles.dim}>visit {v.visit}</span>
            </h3>
            <span className="status" data-status={v.status}>
              {v.status}
            </span>
            <span className={styles.spacer} />
            <span className={styles.dim}>
              {v.rounds.length === 1 ? '1 round' : `${v.rounds.length} rounds`} · {usageText(v.usage, currency)}
            </span>
          </header>
          {v.pre ? <StepList title="Preprocessor" chain={v.pre} {...sel} /> : null}
          {v.rounds
            .filter((r) => !sel.scope || sel.scope.has(r.id))
            .map((r) => (
              <RoundView key={r.id} round={r} currency={currency} {...sel} />
            ))}
          {v.overrides.length ? (
            <p className={styles.note}>
              {v.overrides.map((o) => (
                <span key={o.seq}>
                  <code>{o.field}</code> set from the fact <code>{o.fact}</code>.{' '}
                </span>
              ))}
            </p>
          ) : null}
          {v.finish ? (
            <p className={styles.finish}>
              Finished{v.finish.next ? <> → next phase <code>{v.finish.next}</code></> : null} <span className={styles.dim}>(event {v.finish.seq})</span>
            </p>
          ) : null}
        </article>
      ))}
      {showPost && t.post ? <StepList title="Postprocessor" chain={t.post} {...sel} /> : null}
    </section>
  );
}
