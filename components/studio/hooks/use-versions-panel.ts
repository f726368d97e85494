'use client';
// The Versions panel's open state, as a disclosure: the control that opened it is remembered, and
// closing the panel — its Close button, or Escape while focus is in the panel or on that control —
// puts focus back on it (focus left on a control that is gone lands on the page's body).
import { useCallback, useEffect, useRef, useState } from 'react';

export function useVersionsPanel(panelId: string) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const close = useCallback(() => {
    setOpen(false);
    opener.current?.focus();
  }, []);
  const toggle = useCallback(
    (from: HTMLElement | null) => {
      if (open) return close();
      opener.current = from;
      setOpen(true);
    },
    [open, close],
  );
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      // an Escape something inside took (a menu, Monaco's widgets) is not the panel's
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      const target = e.target instanceof Node ? e.target : null;
      const panel = document.getElementById(panelId);
      if (!target || !(panel?.contains(target) || opener.current?.contains(target))) return;
      e.preventDefault();
      close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, close, panelId]);
  return { open, toggle, close };
}
