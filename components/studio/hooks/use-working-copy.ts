'use client';
// The working copy: the bundle's files as they are in the editor. Monaco's models hold the text; a
// keystroke updates the copy here (a ref) and goes to the analysis at once, but does not render the
// page: the page's `files` (what the draft, the tabs, the run's model choices are drawn from) catch
// up SETTLE_MS after the last keystroke, or at once when asked (`settle`: the editor lost the
// focus, a tab changes). What must be exact reads `current()`: saving, running, leaving the page.
// Which files differ from the saved version (`changed`: the "unsaved" marks) is known at every
// keystroke, and renders the page only when it changes.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Files } from '@/lib/views';

/** the pause after the last keystroke before the page renders the new text */
export const SETTLE_MS = 200;

/** the paths whose text differs between the two (added and removed ones too), sorted */
export function changedPaths(files: Files, saved: Files): string[] {
  const out: string[] = [];
  for (const p of Object.keys(files)) if (!Object.hasOwn(saved, p) || saved[p] !== files[p]) out.push(p);
  for (const p of Object.keys(saved)) if (!Object.hasOwn(files, p)) out.push(p);
  return out.sort();
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export type WorkingCopy = {
  /** the files as the page last rendered them (at most SETTLE_MS behind the editor) */
  files: Files;
  /** the files as they are now */
  current(): Files;
  /** the paths that differ from the saved version now */
  changed: readonly string[];
  /** a keystroke: the text of one file's model */
  type(path: string, text: string): void;
  /** the files replaced at once (a draft taken back, a restore, a file added or removed), rendered now */
  replace(next: Files | ((f: Files) => Files)): void;
  /** the page renders the text as it is now */
  settle(): void;
};

/** `onTyped`: each new working copy made by a keystroke, as it is made */
export function useWorkingCopy(opened: Files, saved: Files, onTyped: (files: Files) => void): WorkingCopy {
  const [files, setFiles] = useState<Files>(opened);
  const live = useRef(files);
  const [changed, setChanged] = useState<readonly string[]>(() => changedPaths(opened, saved));
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef({ saved, onTyped });
  useEffect(() => {
    latest.current = { saved, onTyped };
  });

  const mark = useCallback((f: Files) => {
    const now = changedPaths(f, latest.current.saved);
    setChanged((c) => (sameList(c, now) ? c : now));
  }, []);
  const settle = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    setFiles(live.current);
  }, []);
  const type = useCallback(
    (path: string, text: string) => {
      const f = live.current;
      if (f[path] === text) return;
      live.current = { ...f, [path]: text };
      latest.current.onTyped(live.current);
      mark(live.current);
      clearTimeout(timer.current);
      timer.current = setTimeout(settle, SETTLE_MS);
    },
    [mark, settle],
  );
  const replace = useCallback(
    (next: Files | ((f: Files) => Files)) => {
      live.current = typeof next === 'function' ? next(live.current) : next;
      mark(live.current);
      settle();
    },
    [mark, settle],
  );
  const current = useCallback(() => live.current, []);

  // a save or a restore moves the saved version: the marks follow it
  useEffect(() => mark(live.current), [saved, mark]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return useMemo(() => ({ files, current, changed, type, replace, settle }), [files, current, changed, type, replace, settle]);
}
