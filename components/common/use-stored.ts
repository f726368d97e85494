'use client';
// A value kept in localStorage, read as React reads any outside store (useSyncExternalStore): the
// server renders without it (null), the browser reads it on hydration, and a write here or in
// another tab re-renders whoever reads it. Nothing is read or written during render.
import { useSyncExternalStore } from 'react';

const CHANGED = 'stagecraft:stored';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

/** the text stored under `key` now (null: none, or no storage) — outside render (events, effects) */
export function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** the text stored under `key` (null on the server, or when there is none) */
export function useStored(key: string): string | null {
  return useSyncExternalStore(
    subscribe,
    () => readStored(key),
    () => null,
  );
}

/** stores `value` under `key` and tells this tab's readers; false when the browser would not keep it */
export function writeStored(key: string, value: string): boolean {
  try {
    localStorage.setItem(key, value);
  } catch {
    return false;
  }
  window.dispatchEvent(new Event(CHANGED));
  return true;
}
