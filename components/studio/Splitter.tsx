'use client';
// The handle between the editor and the diagram: drag it, or focus it and use
// the arrow keys. Where it was left is remembered.
import { useCallback } from 'react';
import { useStored, writeStored } from '@/components/common/use-stored';
import styles from './Studio.module.css';

export type Split = { percent: number; set(p: number): void };

const MIN = 22;
const MAX = 78;
const clamp = (p: number) => Math.min(MAX, Math.max(MIN, Math.round(p * 10) / 10));

/** the split as remembered under `storageKey` (read once the page is in the browser), or `initial` */
export function useSplit(storageKey: string, initial = 50): Split {
  const stored = Number(useStored(storageKey));
  const percent = stored >= MIN && stored <= MAX ? stored : initial;
  // a write re-renders the readers (use-stored.ts): the split moves with it
  const set = useCallback((p: number) => void writeStored(storageKey, String(clamp(p))), [storageKey]);
  return { percent, set };
}

export function Splitter({ split, label }: { split: Split; label: string }) {
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    const parent = e.currentTarget.parentElement;
    if (!parent) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    const box = parent.getBoundingClientRect();
    const move = (ev: PointerEvent) => split.set(((ev.clientX - box.left) / box.width) * 100);
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={split.percent}
      aria-valuemin={MIN}
      aria-valuemax={MAX}
      tabIndex={0}
      className={styles.splitter}
      onPointerDown={onPointerDown}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft') split.set(split.percent - 2);
        else if (e.key === 'ArrowRight') split.set(split.percent + 2);
        else return;
        e.preventDefault();
      }}
    />
  );
}
