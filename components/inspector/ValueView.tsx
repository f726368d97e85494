'use client';
// One value of the run as the views send it (a slot), in Details and in the scrubber's state alike.
// A value sent whole is shown as JSON, folded under a one-line summary when long. A value too large
// to send came as its preview and size: `Show all` fetches it (`GET /api/runs/<id>/value`) only when
// asked, and `Fold` puts it back. Even then a huge value is drawn a slice at a time (`Show more`),
// so a 5 MB value costs the page its preview until the user wants it, and then not a 5 MB paint.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { routes } from '@/lib/api/routes';
import { routeQuery } from '@/lib/client/queries';
import type { ValueSlotView } from '@/lib/views';
import { useHydrated } from '@/components/common/use-hydrated';
import styles from './ValueView.module.css';

/** past this many characters a value sent whole starts folded */
const FOLD_CHARS = 600;
/** characters of a fetched value drawn at a time */
const SLICE_CHARS = 100_000;

const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

export const sizeText = (n: number) =>
  n < 10_000 ? `${n.toLocaleString('en')} characters` : n < 1_000_000 ? `${(n / 1000).toFixed(1)} k characters` : `${(n / 1_000_000).toFixed(1)} M characters`;

/** `label` names the value's text (and its buttons: `Show all of <label>`) */
export function ValueView({ runId, slot, label }: { runId: string; slot: ValueSlotView; label: string }) {
  if ('value' in slot) return <WholeValue value={slot.value} label={label} />;
  return <LargeValue runId={runId} slot={slot} label={label} />;
}

function WholeValue({ value, label }: { value: unknown; label: string }) {
  const text = asText(value);
  const pre = (
    <pre className={styles.value} aria-label={label} tabIndex={0}>
      {text}
    </pre>
  );
  if (text.length <= FOLD_CHARS) return pre;
  return (
    <details className={styles.fold}>
      <summary>
        {describe(value)} · {sizeText(text.length)}
      </summary>
      {pre}
    </details>
  );
}

function LargeValue({ runId, slot, label }: { runId: string; slot: Extract<ValueSlotView, { ref: unknown }>; label: string }) {
  const [isOpen, setOpen] = useState(false);
  const [shownChars, setShownChars] = useState(SLICE_CHARS);
  // disabled until hydrated: a click on the server's HTML reaches no handler and is lost (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  const whole = useQuery({ ...routeQuery(routes.getRunValue, { params: { id: runId }, query: { seq: slot.ref.seq, path: slot.ref.path } }), enabled: isOpen, staleTime: Infinity });
  const text = isOpen && whole.data ? asText(whole.data.value) : null;
  return (
    <div className={styles.large}>
      <pre className={styles.value} aria-label={label} tabIndex={0}>
        {text === null ? slot.preview : text.slice(0, shownChars)}
        {text === null || text.length > shownChars ? <span className={styles.dim}>…</span> : null}
      </pre>
      <div className={styles.bar}>
        <span className={styles.dim}>{text === null ? `${sizeText(slot.size)}, shown in part` : text.length > shownChars ? `${sizeText(shownChars)} of ${sizeText(text.length)}` : sizeText(text.length)}</span>
        {!isOpen ? (
          <button type="button" className={styles.linkButton} disabled={!hydrated} onClick={() => setOpen(true)} aria-label={`Show all of ${label}`}>
            Show all
          </button>
        ) : whole.isFetching ? (
          <span className={styles.dim} aria-live="polite">
            Loading…
          </span>
        ) : whole.error ? (
          <span className="form-error" role="alert">
            Not loaded: {whole.error.message}
          </span>
        ) : (
          <>
            {text !== null && text.length > shownChars ? (
              <button type="button" className={styles.linkButton} disabled={!hydrated} onClick={() => setShownChars((n) => n + SLICE_CHARS)} aria-label={`Show more of ${label}`}>
                Show more
              </button>
            ) : null}
            <button type="button" className={styles.linkButton} disabled={!hydrated} onClick={() => (setOpen(false), setShownChars(SLICE_CHARS))} aria-label={`Fold ${label}`}>
              Fold
            </button>
          </>
        )}
      </div>
    </div>
  );
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return `array of ${v.length}`;
  if (v && typeof v === 'object') return `object: ${Object.keys(v).slice(0, 6).join(', ')}${Object.keys(v).length > 6 ? ', …' : ''}`;
  if (typeof v === 'string') return `text: ${v.slice(0, 60).replace(/\s+/g, ' ')}…`;
  return typeof v;
}
