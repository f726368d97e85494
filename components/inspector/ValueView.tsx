'use client';
// One value of the run as the views send it (a slot): inline, shown as JSON — folded when long — or,
// when it was too large to send, its preview and size with `Show all`, which fetches it whole
// (`GET /api/runs/<id>/value`) only when asked. So a 5 MB value costs the page its preview.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { routes } from '@/lib/api/routes';
import { routeQuery } from '@/lib/client/queries';
import type { ValueSlotView } from '@/lib/views';
import styles from './Inspector.module.css';

/** past this many characters a value starts folded */
const FOLD_CHARS = 600;

const sizeText = (n: number) => (n < 10_000 ? `${n.toLocaleString('en')} characters` : n < 1_000_000 ? `${(n / 1000).toFixed(1)} k characters` : `${(n / 1_000_000).toFixed(1)} M characters`);

export function ValueView({ runId, slot, label }: { runId: string; slot: ValueSlotView; label: string }) {
  if ('value' in slot) return <JsonValue value={slot.value} label={label} />;
  return <LargeValue runId={runId} slot={slot} label={label} />;
}

function LargeValue({ runId, slot, label }: { runId: string; slot: Extract<ValueSlotView, { ref: unknown }>; label: string }) {
  const [isAsked, setIsAsked] = useState(false);
  const whole = useQuery({ ...routeQuery(routes.getRunValue, { params: { id: runId }, query: { seq: slot.ref.seq, path: slot.ref.path } }), enabled: isAsked, staleTime: Infinity });
  if (whole.data) return <JsonValue value={whole.data.value} label={label} />;
  return (
    <div className={styles.large}>
      <pre className={styles.code} aria-label={`${label} (preview)`} tabIndex={0}>
        {slot.preview}
        <span className={styles.dim}>…</span>
      </pre>
      <div className={styles.largeBar}>
        <span className={styles.dim}>{sizeText(slot.size)}, shown in part</span>
        <button type="button" className="btn btn-sm" onClick={() => setIsAsked(true)} disabled={whole.isFetching} aria-busy={whole.isFetching || undefined}>
          Show all
        </button>
        {whole.error ? (
          <span className="form-error" role="alert">
            Not loaded: {whole.error.message}
          </span>
        ) : null}
      </div>
    </div>
  );
}

export function JsonValue({ value, label }: { value: unknown; label: string }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const pre = (
    <pre className={styles.code} aria-label={label} tabIndex={0}>
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

function describe(v: unknown): string {
  if (Array.isArray(v)) return `array of ${v.length}`;
  if (v && typeof v === 'object') return `object: ${Object.keys(v).slice(0, 6).join(', ')}${Object.keys(v).length > 6 ? ', …' : ''}`;
  if (typeof v === 'string') return `text: ${v.slice(0, 60).replace(/\s+/g, ' ')}…`;
  return typeof v;
}
