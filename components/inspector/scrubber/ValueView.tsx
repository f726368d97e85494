'use client';
/**
 * One value of a state: shown whole when the server sent it whole; when it was
 * too large to send (a ValueSlot with a ref), its size and preview, and
 * `Show all`, which fetches it (`GET …/value?seq=&path=`) only when asked.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { routes } from '@/lib/api/routes';
import { routeQuery } from '@/lib/client/queries';
import type { ValueSlotView } from '@/lib/views/inspector';
import styles from './Scrubber.module.css';

export const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

export function ValueView({ runId, slot, label }: { runId: string; slot: ValueSlotView; label: string }) {
  const [isOpen, setOpen] = useState(false);
  const ref = 'ref' in slot ? slot.ref : null;
  const full = useQuery({ ...routeQuery(routes.getRunValue, { params: { id: runId }, query: { seq: ref?.seq ?? 0, path: ref?.path ?? '/' } }), enabled: isOpen && ref !== null, staleTime: Infinity });
  if ('value' in slot) {
    return (
      <pre className={styles.value} aria-label={label}>
        {asText(slot.value)}
      </pre>
    );
  }
  return (
    <div className={styles.folded}>
      <pre className={styles.value} aria-label={label}>
        {isOpen && full.data ? asText(full.data.value) : `${slot.preview}…`}
      </pre>
      <div className={styles.foldedBar}>
        <span className={styles.dim}>{slot.size.toLocaleString('en')} characters</span>
        {isOpen ? (
          full.isFetching ? (
            <span className={styles.dim}>Loading…</span>
          ) : full.error ? (
            <span role="alert">{full.error.message}</span>
          ) : (
            <button type="button" className={styles.linkButton} onClick={() => setOpen(false)} aria-label={`Fold ${label}`}>
              Fold
            </button>
          )
        ) : (
          <button type="button" className={styles.linkButton} onClick={() => setOpen(true)} aria-label={`Show all of ${label}`}>
            Show all
          </button>
        )}
      </div>
    </div>
  );
}
