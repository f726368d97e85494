'use client';
// The runs as a table that scrolls through 10,000 of them smoothly: only the rows in view (and a
// few either side) are in the page (@tanstack/react-virtual), the rest stand as two spacer rows
// hidden from screen readers, which are told the whole count (aria-rowcount / aria-rowindex).
// Reaching the end of what is loaded asks for the next keyset page (`onNearEnd`).
import { useVirtualizer } from '@tanstack/react-virtual';
import Link from 'next/link';
import { useEffect, useRef } from 'react';
import type { RunListItemView } from '@/lib/views';
import { RelativeTime } from '@/components/common/RelativeTime';
import { NameBreaks } from '@/components/common/NameParts';
import { formatDuration, modelLabel } from '@/components/common/format';
import { attentionOf } from './run-words';
import { RunStatusWords } from './RunStatusWords';
import styles from './RunList.module.css';

/** a row's height before it is measured (one line, or two with a lineage or failure line) */
const ROW_ESTIMATE_PX = 62;
/** rows kept in the page beyond those in view, either side */
const OVERSCAN = 12;
/** how close to the last loaded row the next page is asked for */
const PREFETCH_ROWS = 30;

type Props = {
  runs: RunListItemView[];
  /** how many runs match in all (the header's count), when known */
  total: number | null;
  liveSkills: string[];
  now: number;
  /** the last loaded rows are in view: load the next page */
  onNearEnd(): void;
};

export function RunTable({ runs, total, liveSkills, now, onNearEnd }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  // the virtualizer re-renders this component itself as it scrolls (this project does not use the React Compiler)
  // eslint-disable-next-line react-hooks/incompatible-library
  const rows = useVirtualizer({
    count: runs.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: OVERSCAN,
    getItemKey: (i) => runs[i]?.runId ?? i,
    // the first paint (on the server, and before the scroller is measured) shows the first rows
    initialRect: { width: 1100, height: 900 },
  });
  const items = rows.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (last >= runs.length - PREFETCH_ROWS) onNearEnd();
  }, [last, runs.length, onNearEnd]);
  const before = items[0]?.start ?? 0;
  const after = items.length ? rows.getTotalSize() - items[items.length - 1].end : 0;

  return (
    <div className={styles.tableWrap} ref={scroller} tabIndex={-1}>
      <table className={styles.table} aria-label="Runs" aria-rowcount={(total ?? runs.length) + 1}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">Run</th>
            <th scope="col">Skill</th>
            <th scope="col">Status</th>
            <th scope="col">Model</th>
            <th scope="col">Started</th>
            <th scope="col">Took</th>
          </tr>
        </thead>
        <tbody>
          {before > 0 ? <tr aria-hidden="true" style={{ height: before }} className={styles.spacer} /> : null}
          {items.map((v) => {
            const r = runs[v.index];
            return <RunRow key={v.key} r={r} index={v.index} measure={rows.measureElement} liveSkills={liveSkills} now={now} />;
          })}
          {after > 0 ? <tr aria-hidden="true" style={{ height: after }} className={styles.spacer} /> : null}
        </tbody>
      </table>
    </div>
  );
}

type RowProps = { r: RunListItemView; index: number; measure: (el: Element | null) => void; liveSkills: string[]; now: number };

function RunRow({ r, index, measure, liveSkills, now }: RowProps) {
  const attention = attentionOf(r);
  const isOpen = r.status === 'running' || r.status === 'queued';
  return (
    <tr ref={measure} data-index={index} aria-rowindex={index + 2} data-attention={attention ?? undefined}>
      <th scope="row">
        <Link href={`/runs/${encodeURIComponent(r.runId)}`} className={styles.runId}>
          {r.runId}
        </Link>
        {r.parentRunId ? (
          <span className={styles.sub}>
            {r.kind === 'fork' || r.kind === 'replay' ? `${r.kind}${r.forkPoint ? ` from ${r.forkPoint}` : ''} of` : 'child of'}{' '}
            <Link href={`/runs/${encodeURIComponent(r.parentRunId)}`} className={styles.mono}>
              {r.parentRunId}
            </Link>
          </span>
        ) : null}
      </th>
      <td className={styles.skillCell}>
        {liveSkills.includes(r.skill) ? (
          <Link href={`/skills/${encodeURIComponent(r.skill)}`} className={styles.mono}>
            <NameBreaks name={r.skill} />
          </Link>
        ) : (
          <span className={styles.mono} title="This skill was deleted or renamed; its runs stay inspectable.">
            <NameBreaks name={r.skill} />
          </span>
        )}
        {r.version ? (
          <span className={styles.sub} title={r.version}>
            version {r.version.slice(0, 8)}
          </span>
        ) : null}
      </td>
      <td className={styles.statusCell}>
        <RunStatusWords r={r} />
      </td>
      <td className={styles.model} title={r.model}>
        {modelLabel(r.model)}
      </td>
      <td className={styles.nowrap}>
        <RelativeTime ms={r.createdAt} now={now} />
      </td>
      <td className={styles.nowrap}>{isOpen || r.durationMs === null ? <span className={styles.muted}>…</span> : formatDuration(r.durationMs)}</td>
    </tr>
  );
}
