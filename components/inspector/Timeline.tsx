'use client';
// The `Timeline` region: each phase visit (its preprocessor steps, its model rounds, its finish),
// then the postprocessor. A round reads left to right as it happened and wraps to the width it
// has: the prompt-assembly lane, the model turn, post-model, pre-tool, the tool calls, post-tool,
// finalize — each lane a `Stage traces` list. Tokens, latency (and cost, given a price) per round
// and per visit. `Next failure` (key n) and `Failed only` move between and keep to the failures —
// every failure of the run, drawn or not.
// A run of thousands of visits stays quick: only the visits in view (and a few either side) are in
// the page (@tanstack/react-virtual), and their pages are read as they come (use-run-timeline.ts).
// It opens fitted to its width; `Zoom in` / `Zoom out` scale it from there and `Fit` goes back. The
// lanes wrap at any zoom, so nothing is clipped.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RunTimelineView } from '@/lib/views';
import { StepList } from './TimelineParts';
import { VisitView, visitEstimatePx } from './TimelineVisit';
import { itemDomId, totalUsageText, visitKeyOf } from './timeline-index';
import type { Visit } from './use-run-timeline';
import { failedOnlyEmptyText, failureCountText, runEndedBadly, runItselfFailed } from './failure-words';
import { useHydrated } from '@/components/common/use-hydrated';
import { centreInBox, keepToolbarInView, shownPart } from './timeline-scroll';
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
  /** the run's head: report, failures, outline (its own `visits` are not read here) */
  timeline: RunTimelineView;
  /** the visits read so far, by outline index */
  visits: ReadonlyMap<number, Visit>;
  isFailedOnly: boolean;
  onFailedOnly: (on: boolean) => void;
  onNextFailure: () => void;
  /** the outline indexes of the visits drawn now (so their pages are read) */
  onVisitsInView: (indexes: readonly number[]) => void;
  /** bumped by each selection the user makes: the selected item is brought into view again */
  moves: number;
  /** the user is stepping the scrubber: its item is brought into view in the timeline's own box */
  followScrubbed?: boolean;
};

/** zoom steps; 1 is fitted to the width */
const ZOOMS = [0.5, 0.67, 0.8, 1, 1.25, 1.5, 2];
const FIT = ZOOMS.indexOf(1);
const POST = -1;
const POST_ESTIMATE_PX = 160;
/** renders after a selection over which its item is kept whole in the box while the visits about it are measured */
const KEEP_SELECTED_RENDERS = 12;
const KEEP_SELECTED_MS = 3_000;

export function Timeline({ timeline: t, visits, isFailedOnly, onFailedOnly, onNextFailure, onVisitsInView, moves, followScrubbed = false, ...sel }: Props) {
  const currency = t.price?.currency ?? null;
  const failures = t.failures.length;
  // denied tool calls are among the failures Next failure visits, but counted apart (failure-words.ts)
  const denied = t.report.step_counts.tool_by_status?.denied ?? 0;
  // and so are the stages refused for a missing grant: they never ran, so they did not fail
  const refused = t.report.step_counts.stage_by_status?.refused ?? 0;
  const rungs = useMemo(() => new Set(t.program.map((p) => p.rung)), [t.program]);
  const [zoomAt, setZoomAt] = useState(FIT);
  // its tools are disabled until hydrated: a click on the server's HTML reaches no handler and is lost
  // (components/common/use-hydrated.ts); ticked there, Failed only showed ticked and filtered nothing
  const hydrated = useHydrated();
  const zoom = ZOOMS[zoomAt];
  // the rows: outline indexes of the visits shown (with Failed only, those that hold a failure), then the postprocessor
  const failedVisits = useMemo(() => new Set(t.failures.map(visitKeyOf)), [t.failures]);
  const rows = useMemo(() => {
    const out: number[] = [];
    t.outline.forEach((o, i) => {
      if (!isFailedOnly || failedVisits.has(o.id)) out.push(i);
    });
    if (t.post && (!isFailedOnly || failedVisits.has(t.post.id))) out.push(POST);
    return out;
  }, [t.outline, t.post, isFailedOnly, failedVisits]);
  const rowOfVisit = useMemo(() => new Map(t.outline.map((o, i) => [o.id, rows.indexOf(i)])), [t.outline, rows]);
  const rowOf = (id: string) => (t.post && visitKeyOf(id) === t.post.id ? rows.indexOf(POST) : (rowOfVisit.get(visitKeyOf(id)) ?? -1));
  const estimate = (row: number) => (rows[row] === POST ? POST_ESTIMATE_PX * zoom : visitEstimatePx(t.outline[rows[row]], visits.get(rows[row]), zoom));
  // opened scrolled to the selected item's visit (on the server too), so its first paint shows it
  const [openedAt] = useState(() => {
    const row = sel.selected ? rowOf(sel.selected) : -1;
    let px = 0;
    for (let i = 0; i < row; i++) px += estimate(i);
    return Math.max(0, px - 80);
  });
  const scroller = useRef<HTMLDivElement>(null);
  const section = useRef<HTMLElement>(null);
  // the virtualizer re-renders this component itself as it scrolls (this project does not use the React Compiler)
  // eslint-disable-next-line react-hooks/incompatible-library
  const list = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: estimate,
    overscan: 3,
    getItemKey: (i) => rows[i],
    initialRect: { width: 900, height: 700 },
    initialOffset: openedAt,
  });
  const items = list.getVirtualItems();
  const inView = items.map((v) => rows[v.index]).filter((i) => i !== POST);
  const inViewKey = inView.join(',');
  useEffect(() => onVisitsInView(inViewKey ? inViewKey.split(',').map(Number) : []), [inViewKey, onVisitsInView]);
  useEffect(() => list.measure(), [zoom, list]);

  // the selected item brought into view: its visit's row first (it may not be drawn), then the item.
  // The visits about it are measured as they are read and drawn, moving it (a run opened on its last
  // visit's failed step showed the step's top edge alone at the bottom of the box): it is brought back
  // whole into the box on the renders that follow, until the user scrolls the box, steps the
  // scrubber, or a few renders or a moment have passed (a later scroll of the box is the user's)
  const pending = useRef<{ id: string; hasScrolledToRow: boolean; checks: number; until: number } | null>(null);
  useEffect(() => {
    pending.current = sel.selected ? { id: sel.selected, hasScrolledToRow: false, checks: 0, until: Date.now() + KEEP_SELECTED_MS } : null;
  }, [sel.selected, moves]);
  useEffect(() => {
    const p = pending.current;
    if (!p) return;
    const el = document.getElementById(itemDomId(p.id));
    const box = scroller.current;
    if (el && box) {
      const at = el.getBoundingClientRect();
      const view = shownPart(box);
      const isWhole = at.top >= view.top && at.bottom <= view.bottom;
      // the first time by the page too (the box may be off screen), keeping the toolbar in the window
      // (centred in the window, a late failure left it above, the count and Next failure out of
      // view); after that by the box's own scroll alone, in the part of the box on screen: the page
      // must not move under the reader (or a test measuring it) while the visits settle
      if (p.checks === 0) {
        el.scrollIntoView({ block: 'center', inline: 'nearest' });
        if (section.current) keepToolbarInView(section.current, box, el);
      } else if (!isWhole && Date.now() < p.until) centreInBox(box, el, view);
      if (++p.checks >= KEEP_SELECTED_RENDERS || Date.now() >= p.until) pending.current = null;
    } else if (p.checks > 0) {
      // it was shown and is no longer drawn: the box was scrolled away from it (by the user, or a
      // script's scrollTo, which no listener hears): let go rather than pull it back
      pending.current = null;
    } else if (!p.hasScrolledToRow) {
      const row = rowOf(p.id);
      if (row >= 0) list.scrollToIndex(row, { align: 'center' });
      p.hasScrolledToRow = true;
    }
  });

  // the scrubber's item brought into view the same way, by scrolling the timeline's box: the page
  // stays put, with the scrubber the user is stepping where it was, unless the box alone cannot show
  // the item (then the page moves by the least that does). The visits about it are
  // measured as they are read and drawn (and the virtualizer corrects its own scroll), moving it: it is
  // kept in view until the user scrolls the box or steps again
  const scrubPending = useRef<{ id: string; hasScrolledToRow: boolean; tries: number } | null>(null);
  useEffect(() => {
    scrubPending.current = followScrubbed && sel.scrubbed ? { id: sel.scrubbed, hasScrolledToRow: false, tries: 0 } : null;
    if (scrubPending.current) pending.current = null; // the scrubber's item is the one to show now
  }, [sel.scrubbed, followScrubbed]);
  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const letGo = () => {
      scrubPending.current = null;
      pending.current = null;
    };
    const events = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
    for (const e of events) box.addEventListener(e, letGo, { passive: true });
    return () => {
      for (const e of events) box.removeEventListener(e, letGo);
    };
  }, []);
  useEffect(() => {
    const p = scrubPending.current;
    const box = scroller.current;
    if (!p || !box) return;
    const el = document.getElementById(itemDomId(p.id));
    if (el) {
      const at = el.getBoundingClientRect();
      // the part of the box on screen (all of the box when hardly any of it is: the item is then kept
      // in the box, for when it is scrolled to)
      const shown = shownPart(box);
      const view = shown.bottom - shown.top >= 80 ? shown : box.getBoundingClientRect();
      const isMoved = (at.top < view.top || at.bottom > view.bottom) && centreInBox(box, el, view);
      // where the box can take it no further (at its top, with the box's top above the window: the
      // first items on stepping back to event 1), the page shows it: by the least scroll that does,
      // none when it is in the window already; once, so a page the user scrolls on is not pulled back
      if (!isMoved && (at.top < 0 || at.bottom > window.innerHeight)) {
        el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
        scrubPending.current = null;
      }
      // an item that cannot be kept in view (taller than the box) is not chased for ever
      if (isMoved && ++p.tries >= 8) scrubPending.current = null;
    } else if (!p.hasScrolledToRow) {
      // its visit's row, by the box's own scroll (the virtualizer's scrollToIndex would go on steering
      // to the row's estimate while the item is put in view)
      const row = rowOf(p.id);
      const offset = row >= 0 ? list.getOffsetForIndex(row, 'center') : undefined;
      if (offset) box.scrollTop = offset[0];
      p.hasScrolledToRow = true;
    }
  });

  return (
    <section ref={section} className={styles.timeline} aria-labelledby="timeline-title">
      {/* two groups, each kept on one line: the title with what the run holds, and the controls;
          where the box is too narrow for both (1024 px), the controls go under the title together */}
      <div className={styles.timelineHead}>
        <span className={styles.timelineTitle}>
          <h2 id="timeline-title">Timeline</h2>
          <span className={styles.dim}>
            {t.outline.length === 1 ? '1 visit' : `${t.outline.length.toLocaleString('en')} visits`} · {totalUsageText(t.usage, currency)}
          </span>
        </span>
        <span className={styles.timelineTools}>
          <span className={failures > denied + refused || runItselfFailed(failures - denied, t.selected) || runEndedBadly(t.status) ? styles.failCount : styles.dim}>{failureCountText(failures, t.selected, denied, t.status, refused)}</span>
          <button type="button" className="btn btn-sm" onClick={onNextFailure} disabled={!hydrated || failures === 0} aria-keyshortcuts="n" title="Next failure (n)">
            Next failure <kbd aria-hidden="true">n</kbd>
          </button>
          <label className={styles.check}>
            <input type="checkbox" checked={isFailedOnly} onChange={(e) => onFailedOnly(e.target.checked)} disabled={!hydrated} /> Failed only
          </label>
          <span className={styles.zoom} role="group" aria-label="Zoom">
            <button type="button" className="btn btn-sm" onClick={() => setZoomAt((z) => Math.max(0, z - 1))} disabled={!hydrated || zoomAt === 0} aria-label="Zoom out" title="Zoom out">
              −
            </button>
            {/* relative to the fitted width (100%): the Fit button beside it, pressed there, says so */}
            <output className={styles.zoomLevel} aria-label="Zoom level" title="Zoom, relative to the fitted width">
              {Math.round(zoom * 100)}%
            </output>
            <button type="button" className="btn btn-sm" onClick={() => setZoomAt((z) => Math.min(ZOOMS.length - 1, z + 1))} disabled={!hydrated || zoomAt === ZOOMS.length - 1} aria-label="Zoom in" title="Zoom in">
              +
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setZoomAt(FIT)} disabled={!hydrated} aria-pressed={zoomAt === FIT} title="Fit the width">
              Fit
            </button>
          </span>
        </span>
      </div>
      {/* most skills have none: one muted line, not a note that reads as something to act on */}
      {t.program.length === 0 && t.outline.length ? <p className={`${styles.note} ${styles.dim}`}>This skill declares no capability stages: its rounds have no rung lanes to fill.</p> : null}
      {rows.length === 0 ? (
        <p className={styles.dim}>{isFailedOnly ? failedOnlyEmptyText(failures, t.selected) : t.status === 'queued' ? 'The run has not started yet.' : 'Nothing recorded yet.'}</p>
      ) : null}
      <div ref={scroller} className={styles.timelineScroll} data-zoom={zoom}>
        <div style={{ height: list.getTotalSize(), position: 'relative' }}>
          {items.map((v) => {
            const i = rows[v.index];
            return (
              <div key={v.key} ref={list.measureElement} data-index={v.index} className={styles.timelineRow} style={{ transform: `translateY(${v.start}px)` }}>
                <div style={{ zoom }}>
                  {i === POST ? (
                    t.post ? <StepList title="Postprocessor" chain={t.post} {...sel} /> : null
                  ) : (
                    <VisitView outline={t.outline[i]} visit={visits.get(i)} currency={currency} rungs={rungs} {...sel} />
                  )}
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
