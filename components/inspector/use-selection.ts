'use client';
// What the timeline has selected: the user's choice, else what the view opens on (a failed run's
// first failure, a blocked run's blocker) — derived, so a run that fails while it is watched opens
// on its failure when it ends. `n` (outside a text field, no modifier) moves to the next failure; the
// timeline brings the selected item into view (Timeline.tsx: it may be in a visit not yet drawn).
// `onMove` hears each move to a failure (Next failure, `n`), as the page hears a click, so the
// scrubber goes to the event of the item Details shows.
import { useCallback, useEffect, useState } from 'react';
import { nextFailure, selectedInScope } from './timeline-index';

/**
 * `scope`: what the failed-only filter keeps (null: everything); a selection it hides gives way
 * (selectedInScope), and `n` moves on from what is shown. `shownIn(scope)`: what would be shown
 * under another scope (the page asks before it ticks or unticks the filter).
 */
export function useSelection(opened: string | null, failures: readonly string[], scope: ReadonlySet<string> | null = null, onMove?: (id: string) => void) {
  const [chosen, setChosen] = useState<string | null>(null);
  const shownIn = useCallback((s: ReadonlySet<string> | null) => selectedInScope(chosen ?? opened, s, opened, failures), [chosen, opened, failures]);
  const selected = shownIn(scope);
  // counts the user's moves: a move to the item already selected (the only failure) still brings it into view
  const [moves, setMoves] = useState(0);

  const select = useCallback((id: string) => {
    setChosen(id);
    setMoves((m) => m + 1);
  }, []);
  const next = useCallback(() => {
    const id = nextFailure(failures, selected);
    if (!id) return;
    select(id);
    onMove?.(id);
  }, [failures, selected, select, onMove]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'n' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const t = e.target as HTMLElement | null;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) || t.closest('[role="dialog"]'))) return;
      e.preventDefault();
      next();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [next]);

  return { selected, select, next, moves, shownIn };
}
