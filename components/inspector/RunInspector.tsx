'use client';
// The inspector part of the run page: the report, then the timeline with the scrubber under it and
// the Details panel beside it. It reads the kernel's views (timeline, items, values) through the
// typed client; the run's own view (kept live by its event stream) says when the timeline is behind.
// `children` (the ways to take the run on: rerun, fork, lineage) go between the report and the timeline.
import { useMemo, useState, type ReactNode } from 'react';
import type { RunTimelineView, RunView } from '@/lib/views';
import { Details } from './Details';
import { Scrubber } from './scrubber/Scrubber';
import { RunReport } from './RunReport';
import { Timeline } from './Timeline';
import { failureScope, indexTimeline, timelinePositions } from './timeline-index';
import { useRunTimeline } from './use-run-timeline';
import { useSelection } from './use-selection';
import styles from './Inspector.module.css';

type Props = { run: RunView; initialTimeline: RunTimelineView | null; children?: ReactNode };

export function RunInspector({ run, initialTimeline, children }: Props) {
  const { timeline, error } = useRunTimeline(run.runId, initialTimeline, { eventCount: run.eventCount, status: run.status });
  if (!timeline) {
    return (
      <>
        {children}
        <p className={error ? 'form-error' : styles.dim} role={error ? 'alert' : undefined}>
          {error ? `The timeline could not be read: ${error}` : 'Reading the timeline…'}
        </p>
      </>
    );
  }
  return <Inspector run={run} timeline={timeline}>{children}</Inspector>;
}

function Inspector({ run, timeline: t, children }: { run: RunView; timeline: RunTimelineView; children?: ReactNode }) {
  const index = useMemo(() => indexTimeline(t), [t]);
  const positions = useMemo(() => timelinePositions(t), [t]);
  const { selected, select, next } = useSelection(t.selected, t.failures);
  const [isFailedOnly, setIsFailedOnly] = useState(false);
  const scope = useMemo(() => (isFailedOnly ? failureScope(index, t.failures) : null), [isFailedOnly, index, t.failures]);
  const version = run.version ?? t.report.version?.skill_hash ?? null;
  const currency = t.price?.currency ?? null;
  const entry = selected ? (index.get(selected) ?? null) : null;
  // the scrubber's step (the last event at first; the scrubber follows a live run's end while it stands
  // there) and the timeline item recorded at it
  const [seq, setSeq] = useState(run.eventCount);
  const [scrubbed, setScrubbed] = useState<string | null>(null);
  const selectItem = (id: string) => {
    select(id);
    const at = index.get(id)?.seq;
    if (typeof at === 'number') setSeq(at);
  };
  return (
    <>
      <RunReport report={t.report} status={run.status} skill={run.skill} version={version} drivers={run.drivers} usage={t.usage} currency={currency} onSelect={selectItem} />
      {children}
      <div className={styles.grid}>
        <div className={styles.main}>
          <Timeline timeline={t} isFailedOnly={isFailedOnly} onFailedOnly={setIsFailedOnly} onNextFailure={next} selected={selected} scrubbed={scrubbed} onSelect={selectItem} scope={scope} />
          <Scrubber runId={run.runId} lastSeq={Math.max(run.eventCount, t.lastSeq)} seq={seq} onSeq={setSeq} onItem={setScrubbed} />
        </div>
        <aside className={styles.side}>
          <Details runId={run.runId} status={run.status} skill={run.skill} version={version} selected={selected} entry={entry} report={t.report} positions={positions} />
        </aside>
      </div>
    </>
  );
}
