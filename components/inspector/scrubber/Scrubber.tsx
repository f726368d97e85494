'use client';
/**
 * The scrubber: walk a run event by event. A slider `Step` (0 = before the
 * first event … lastSeq), the buttons `First step`, `Previous step`,
 * `Next step` and `Last step`, and ←/→ and Home/End while focus is in it;
 * under them the region `State at step` — the state after that event, from
 * the kernel's fold on the server (`GET /api/runs/<id>/state?seq=K`), and
 * what the event changed.
 *
 * Controlled: the page holds `seq` and hears every move through `onSeq`;
 * `onItem` hears the timeline item recorded at the step once its state has
 * arrived (null before the first event), so the page can highlight it;
 * `onStep` hears each move the user makes (not a live run's end followed).
 *
 * Live runs: `lastSeq` grows as events are recorded. A scrubber whose seq
 * stood at the old end follows to the new end (it calls `onSeq(lastSeq)`);
 * one moved back stays where the user left it.
 */
import { useEffect, useEffectEvent, useRef, useState, type KeyboardEvent } from 'react';
import { StateAtStep } from './StateAtStep';
import { useFollowEnd, useScrub } from './use-scrub';
import { useHydrated } from '@/components/common/use-hydrated';
import styles from './Scrubber.module.css';

/** `declaresStages`: the skill declares capability stages (StateAtStep leaves out its Stages fact where it has none) */
type Props = { runId: string; lastSeq: number; seq: number; onSeq: (seq: number) => void; onItem?: (itemId: string | null) => void; onStep?: () => void; declaresStages?: boolean };

export function Scrubber({ runId, lastSeq, seq, onSeq, onItem, onStep, declaresStages = true }: Props) {
  const [isDragging, setDragging] = useState(false);
  const at = Math.max(0, Math.min(lastSeq, seq));
  const slider = useRef<HTMLInputElement>(null);
  // its buttons and slider are disabled until hydrated: on the server's HTML a click reached no handler,
  // and the slider moved with nothing shown (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  const go = (k: number) => {
    const to = Math.max(0, Math.min(lastSeq, k));
    // a focused button this move disables would drop focus to the page, and with it ←/→ and Home/End:
    // the slider takes it over (it steps on the same keys)
    const focused = document.activeElement;
    const end = focused instanceof HTMLElement ? focused.dataset.end : undefined;
    if ((end === 'first' && to === 0) || (end === 'last' && to >= lastSeq)) slider.current?.focus();
    onStep?.();
    onSeq(to);
  };
  useFollowEnd(at, lastSeq, onSeq);
  const scrub = useScrub(runId, at, lastSeq, isDragging);

  // the item is told once per arrived step, not on every render of the page
  const tellItem = useEffectEvent((item: string | null) => onItem?.(item));
  const shownSeq = scrub.state?.seq;
  const shownItem = scrub.state?.item ?? null;
  useEffect(() => {
    if (shownSeq !== undefined) tellItem(shownItem);
  }, [shownSeq, shownItem]);

  // a drag ends wherever the pointer is let go, on the slider or not
  useEffect(() => {
    if (!isDragging) return;
    const stop = () => setDragging(false);
    window.addEventListener('pointerup', stop);
    window.addEventListener('pointercancel', stop);
    return () => {
      window.removeEventListener('pointerup', stop);
      window.removeEventListener('pointercancel', stop);
    };
  }, [isDragging]);

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    // the slider moves itself on these keys (and says so through onChange)
    if (e.target instanceof HTMLInputElement && e.target.type === 'range') return;
    const to = e.key === 'ArrowLeft' ? at - 1 : e.key === 'ArrowRight' ? at + 1 : e.key === 'Home' ? 0 : e.key === 'End' ? lastSeq : null;
    if (to === null || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    go(to);
  };

  return (
    <section className={styles.scrubber} aria-label="Scrubber" onKeyDown={onKeyDown}>
      <div className={styles.bar}>
        <h2 className={styles.title}>Step through the run</h2>
        <div className={styles.buttons}>
          <button type="button" onClick={() => go(0)} disabled={!hydrated || at === 0} data-end="first" aria-label="First step" title="First step (Home)">
            <Icon shape="first" />
          </button>
          <button type="button" onClick={() => go(at - 1)} disabled={!hydrated || at === 0} data-end="first" aria-label="Previous step" title="Previous step (←)">
            <Icon shape="previous" />
          </button>
          <button type="button" onClick={() => go(at + 1)} disabled={!hydrated || at >= lastSeq} data-end="last" aria-label="Next step" title="Next step (→)">
            <Icon shape="next" />
          </button>
          <button type="button" onClick={() => go(lastSeq)} disabled={!hydrated || at >= lastSeq} data-end="last" aria-label="Last step" title="Last step (End)">
            <Icon shape="last" />
          </button>
        </div>
        <input
          ref={slider}
          type="range"
          className={styles.slider}
          aria-label="Step"
          aria-valuetext={`event ${at} of ${lastSeq}`}
          min={0}
          max={lastSeq}
          step={1}
          value={at}
          disabled={!hydrated}
          onChange={(e) => go(Number(e.target.value))}
          onPointerDown={() => setDragging(true)}
        />
        <span className={styles.position} aria-live="polite">
          event {at} of {lastSeq}
        </span>
      </div>
      <StateAtStep state={scrub.state} before={scrub.before} isLoading={scrub.isLoading} error={scrub.error} declaresStages={declaresStages} />
    </section>
  );
}

/** the buttons' marks, drawn (a font may not have ⏮ and ⏭); the buttons carry the names */
function Icon({ shape }: { shape: 'first' | 'previous' | 'next' | 'last' }) {
  const isBack = shape === 'first' || shape === 'previous';
  const hasBar = shape === 'first' || shape === 'last';
  return (
    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
      <path d={isBack ? 'M10 1.5 L3.5 6 L10 10.5 Z' : 'M2 1.5 L8.5 6 L2 10.5 Z'} fill="currentColor" />
      {hasBar ? <rect x={isBack ? 1 : 9.5} y="1.5" width="1.5" height="9" fill="currentColor" /> : null}
    </svg>
  );
}
