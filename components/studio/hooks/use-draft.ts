'use client';
// Unsaved work is never lost to a navigation or a reload: the working copy is kept in localStorage
// as a draft (with the version it was based on) until it is saved, written shortly after each edit
// and at once when the page is left, and offered back when the page opens again. A browser that
// will not keep it (storage full or disabled) gets the "leave the page?" prompt instead.
//
// The stored draft is looked at when the editor is ready (`offerBack`, an event), not during the
// first render: the server renders the page without localStorage, and the text goes into the
// editor's models then anyway. Until it has been looked at, nothing is written over it.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Files } from '@/lib/views';
import { clearDraft, countAsideDrafts, newDraftOwner, readAsideDraft, readDraft, writeDraft } from '../drafts';
import { draftOffer } from '../studio-logic';

/** the pause after an edit before the draft is written */
export const DRAFT_WRITE_MS = 250;

export type DraftKeeper = {
  /** "your unsaved changes are back", while it applies */
  note: string | null;
  /** when the editor is ready: the stored draft's files to take back, if there is one worth it (once) */
  offerBack(): Files | null;
  /** the working copy was saved or thrown away: no draft, no note */
  forget(): void;
};

/**
 * `isEnabled: false` (an older version, read-only): nothing is offered back, written or cleared.
 * `now`: the working copy as it is at this moment, when it can be ahead of the rendered `files`
 * (what leaving the page keeps).
 */
export function useDraft(name: string, working: { files: Files; base: string | null; dirty: boolean; isEnabled?: boolean; now?: () => { files: Files; dirty: boolean } }): DraftKeeper {
  const isEnabled = working.isEnabled ?? true;
  const [note, setNote] = useState<string | null>(null);
  const [checked, setChecked] = useState(false);
  const kept = useRef(true);
  // this page's drafts, told apart from another tab's on the same skill (neither writes over nor clears the other's)
  const [owner] = useState(newDraftOwner);
  const latest = useRef({ ...working, checked, isEnabled });
  useEffect(() => {
    latest.current = { ...working, checked, isEnabled };
  });

  const offerBack = useCallback((): Files | null => {
    if (latest.current.checked || !latest.current.isEnabled) return null;
    const stored = readDraft(name);
    const offer = draftOffer(stored, latest.current.files, latest.current.base, (ms) => new Date(ms).toLocaleString(), readAsideDraft(name), countAsideDrafts(name) - 1);
    if (offer) setNote(offer.note);
    // the draft taken back is this page's to carry on (a reload, or a tab opened on it)
    if (offer && stored?.tab) owner.took.add(stored.tab);
    setChecked(true);
    return offer?.files ?? null;
  }, [name, owner]);

  const forget = useCallback(() => {
    if (latest.current.isEnabled) clearDraft(name, owner);
    setNote(null);
  }, [name, owner]);

  const { files, base, dirty } = working;
  useEffect(() => {
    if (!checked || !isEnabled) return;
    const t = setTimeout(() => {
      if (dirty) kept.current = writeDraft(name, { files, base, at: Date.now() }, owner);
      else clearDraft(name, owner);
    }, DRAFT_WRITE_MS);
    return () => clearTimeout(t);
  }, [files, dirty, base, name, checked, isEnabled, owner]);

  // leaving the page (a reload, closing the tab, a link to another page of the app) keeps the draft at once
  useEffect(() => {
    const now = () => latest.current.now?.() ?? latest.current;
    const keep = () => {
      const d = latest.current;
      const w = now();
      if (w.dirty && d.checked && d.isEnabled) kept.current = writeDraft(name, { files: w.files, base: d.base, at: Date.now() }, owner);
    };
    const warn = (e: BeforeUnloadEvent) => {
      keep();
      if (now().dirty && !kept.current) e.preventDefault();
    };
    window.addEventListener('pagehide', keep);
    window.addEventListener('beforeunload', warn);
    return () => {
      keep();
      window.removeEventListener('pagehide', keep);
      window.removeEventListener('beforeunload', warn);
    };
  }, [name, owner]);

  return useMemo(() => ({ note, offerBack, forget }), [note, offerBack, forget]);
}
