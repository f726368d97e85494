'use client';
// The inspector part of the run page: the report, then the timeline with the scrubber under it and
// the Details panel beside it. It reads the kernel's views (timeline pages, items, values) through the
// typed client; the run's own view (kept live by its event stream) says when the timeline is behind.
// A long run's timeline is read a page of visits at a time: the pages in view, and the page of the
// selected item (so `Next failure` and a failed run's opening reach a failure in any visit).
// `children` (the ways to take the run on: rerun, fork, lineage) go between the report and the timeline.
import { memo, startTransition, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { RunTimelineView, RunView } from '@/lib/views';
import { cutShortOf } from '@/lib/views/cut-short';
import { Details } from './Details';
import { Scrubber } from './scrubber/Scrubber';
import { RunReport } from './RunReport';
import { Timeline } from './Timeline';
import { eventOf, failureScope, indexTimeline, timelinePositions, visitIndexOf } from './timeline-index';
import { pageOfVisit, useRunTimeline, type TimelinePages } from './use-run-timeline';
import { useSelection } from './use-selection';
import styles from './Inspector.module.css';

type Props = { run: RunView; initialTimeline: RunTimelineView | null; children?: ReactNode };

// a scrubber step changes the page's seq (and then the item it highlights): the report, the timeline
// and Details are drawn again only when their own props change, so a step costs the scrubber's render
const ReportPart = memo(RunReport);
const TimelinePart = memo(Timeline);
const DetailsPart = memo(Details);

export function RunInspector({ run, initialTimeline, children }: Props) {
  const [wanted, setWanted] = useState<readonly number[]>([]);
  const pages = useRunTimeline(run.runId, initialTimeline, { eventCount: run.eventCount, status: run.status }, wanted);
  if (!pages.head) {
    return (
      <>
        {children}
        <p className={pages.error ? 'form-error' : styles.dim} role={pages.error ? 'alert' : undefined}>
          {pages.error ? `The timeline could not be read: ${pages.error}` : 'Reading the timeline…'}
        </p>
      </>
    );
  }
  return (
    <Inspector run={run} head={pages.head} visits={pages.visits} onWant={setWanted}>
      {children}
    </Inspector>
  );
}

/** the scrubber's step: a number, or an item's event once its page is read (till then, the step it left) */
type Cursor = number | { item: string; from: number };
function seqAt(c: Cursor, index: ReturnType<typeof indexTimeline>): number {
  return typeof c === 'number' ? c : (eventOf(index.get(c.item)) ?? c.from);
}

type InspectorProps = { run: RunView; head: RunTimelineView; visits: TimelinePages['visits']; onWant: (pages: readonly number[]) => void; children?: ReactNode };

function Inspector({ run, head, visits, onWant, children }: InspectorProps) {
  // the run as far as it has been read: every visit read so far, in order
  const t = useMemo(() => ({ ...head, visits: [...visits.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v) }), [head, visits]);
  const index = useMemo(() => indexTimeline(t), [t]);
  const positions = useMemo(() => timelinePositions(t), [t]);
  const [isFailedOnly, setIsFailedOnly] = useState(false);
  const failedScope = useMemo(() => failureScope(index, head.failures), [index, head.failures]);
  const scope = isFailedOnly ? failedScope : null;
  // the scrubber's step (the last event at first: the later of the run's count and the timeline's end,
  // which the page reads one after the other while the run records more — started at the count, the
  // scrubber took itself for moved back from the end and never followed; it follows a live run's end
  // while it stands there) and the timeline item recorded at it. An item the user moves to (a click, Next failure, `n`,
  // what Failed only shows instead) sets it to that item's event, so the slider and Details name the
  // same one; a long run's failure in a visit not read yet has no event known until its page is read,
  // and the step stays where it was till then
  const lastSeq = Math.max(run.eventCount, head.lastSeq);
  const [cursor, setCursor] = useState<Cursor>(lastSeq);
  const seq = seqAt(cursor, index);
  const [scrubbed, setScrubbed] = useState<string | null>(null);
  // the highlight follows the scrubber after the step is on screen, not before
  const onScrubbedItem = useCallback((id: string | null) => startTransition(() => setScrubbed(id)), []);
  // once the user steps the scrubber, the timeline shows its item (in a long run, a visit far from the one in view)
  const [isScrubbing, setScrubbing] = useState(false);
  const onScrubStep = useCallback(() => setScrubbing(true), []);
  const moveTo = useCallback(
    (id: string) => {
      setScrubbing(false);
      const at = eventOf(index.get(id));
      if (at !== null) setCursor(at);
      else if (!index.has(id)) setCursor((c) => ({ item: id, from: seqAt(c, index) }));
    },
    [index],
  );
  // Failed only hides what it does not keep: a selection among those is replaced, in the timeline and in
  // Details, and Next failure moves on from the one shown
  const { selected, select, next, moves, shownIn } = useSelection(head.selected, head.failures, scope, moveTo);
  const version = run.version ?? head.report.version?.skill_hash ?? null;
  const currency = head.price?.currency ?? null;
  // the step a user's abort cut short (its error names it): one object while the error is the same, the report is memoized
  const cutShort = useMemo(() => cutShortOf(run.error), [run.error]);
  const entry = selected ? (index.get(selected) ?? null) : null;
  // the pages to read: those the timeline shows, and the selected item's
  const [inView, setInView] = useState<readonly number[]>([]);
  const selectedVisit = selected ? visitIndexOf(head.outline, selected) : -1;
  const wantKey = [...new Set([...inView.map(pageOfVisit), ...(selectedVisit >= 0 ? [pageOfVisit(selectedVisit)] : [])])].sort((a, b) => a - b).join(',');
  useEffect(() => onWant(wantKey ? wantKey.split(',').map(Number) : []), [wantKey, onWant]);
  const selectItem = useCallback(
    (id: string) => {
      select(id);
      moveTo(id);
    },
    [select, moveTo],
  );
  // ticked, the filter shows failures: the scrubber goes to the one Details shows (the selection kept, or
  // the failure that replaced it); unticked, it goes with Details only when that changes (the selection
  // the filter hid comes back)
  const onFailedOnly = useCallback(
    (on: boolean) => {
      setIsFailedOnly(on);
      const shown = shownIn(on ? failedScope : null);
      if (shown !== null && (on || shown !== selected)) moveTo(shown);
    },
    [shownIn, failedScope, selected, moveTo],
  );
  return (
    <>
      <ReportPart report={head.report} status={run.status} skill={run.skill} version={version} drivers={run.drivers} usage={head.usage} currency={currency} cutShort={cutShort} onSelect={selectItem} declaresStages={head.program.length > 0} />
      {children}
      {/* the keyboard goes as the page reads, row by row: the timeline, then Details beside it (the
          selected item's), then the scrubber under the timeline with the state at its step */}
      <div className={styles.grid}>
        <div className={styles.main}>
          <TimelinePart timeline={head} visits={visits} isFailedOnly={isFailedOnly} onFailedOnly={onFailedOnly} onNextFailure={next} onVisitsInView={setInView} moves={moves} selected={selected} scrubbed={scrubbed} followScrubbed={isScrubbing} onSelect={selectItem} scope={scope} />
        </div>
        <aside className={styles.side}>
          <DetailsPart runId={run.runId} status={run.status} skill={run.skill} version={version} selected={selected} entry={entry} report={head.report} positions={positions} />
        </aside>
        <div className={styles.under}>
          <Scrubber runId={run.runId} lastSeq={lastSeq} seq={seq} onSeq={setCursor} onItem={onScrubbedItem} onStep={onScrubStep} declaresStages={head.program.length > 0} />
        </div>
      </div>
    </>
  );
}
