'use client';
// One phase visit of the timeline: its preprocessor steps, its model rounds, its finish — or, while
// its page of visits is being read, its outline (phase, visit, status, rounds) in the same frame.
import type { RunTimelineView } from '@/lib/views';
import { RoundView, StepList } from './TimelineParts';
import { usageText } from './timeline-index';
import type { TimelineSelection } from './Timeline';
import styles from './Inspector.module.css';
import { plural } from '@/lib/kernel/plural';

type Visit = RunTimelineView['visits'][number];
type Outline = RunTimelineView['outline'][number];

type Props = TimelineSelection & { outline: Outline; visit: Visit | undefined; currency: string | null; rungs: ReadonlySet<string> };

export function VisitView({ outline: o, visit: v, currency, rungs, ...sel }: Props) {
  return (
    <article className={styles.visit} aria-label={`Phase ${o.phase}, visit ${o.visit}`} data-status={o.status} aria-busy={v ? undefined : true}>
      <header className={styles.visitHead}>
        <h3>
          {o.phase} <span className={styles.dim}>visit {o.visit}</span>
        </h3>
        <span className="status" data-status={o.status}>
          {o.status}
        </span>
        <span className={styles.spacer} />
        <span className={styles.dim}>
          {plural(o.rounds, 'round')}
          {v ? ` · ${usageText(v.usage, currency)}` : ''}
        </span>
      </header>
      {v ? <VisitBody visit={v} currency={currency} rungs={rungs} {...sel} /> : <p className={styles.dim}>Reading this visit…</p>}
    </article>
  );
}

function VisitBody({ visit: v, currency, rungs, ...sel }: TimelineSelection & { visit: Visit; currency: string | null; rungs: ReadonlySet<string> }) {
  return (
    <>
      {v.pre ? <StepList title="Preprocessor" chain={v.pre} {...sel} /> : null}
      {v.rounds
        .filter((r) => !sel.scope || sel.scope.has(r.id))
        .map((r) => (
          <RoundView key={r.id} round={r} currency={currency} rungs={rungs} {...sel} />
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
    </>
  );
}

/** a visit's height before it is drawn and measured: its header, a preprocessor, its rounds */
export function visitEstimatePx(o: Outline, v: Visit | undefined, zoom: number): number {
  return Math.round((56 + (v?.pre ? 96 : 0) + o.rounds * 200) * zoom);
}
