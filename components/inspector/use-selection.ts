'use client';
// What the timeline has selected: the user's choice, else what the view opens on (a failed run's
// first failure, a blocked run's blocker) — derived, so a run that fails while it is watched opens
// on its failure when it ends. `n` (outside a text field, no modifier) moves to the next failure; the
// timeline brings the selected item into view (Timeline.tsx: it may be in a visit not yet drawn).
import { useCallback, useEffect, useState } from 'react';
import { nextFailure, selectedInScope } from './timeline-index';

/** `scope`: what the failed-only filter keeps (null: everything); a selection it hides gives way (selectedInScope), and `n` moves on from what is shown */
export function useSelection(opened: string | null, failures: readonly string[], scope: ReadonlySet<string> | null = null) {
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = selectedInScope(chosen ?? opened, scope, opened, failures);
  // counts the user's moves: a move to the item already selected (the only failure) still brings it into view
  const [moves, setMoves] = useState(0);

  const select = useCallback((id: string) => {
    setChosen(id);
    setMoves((m) => m + 1);
  }, []);
  const next = useCallback(() => {
    const id = nextFailure(failures, selected);
    if (id) select(id);
  }, [failures, selected, select]);

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

  return { selected, select, next, moves };
}
