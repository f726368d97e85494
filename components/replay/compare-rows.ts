// Which aligned rows of a comparison to draw: every changed row with a little context around it,
// the unchanged stretches between folded into one row each, unless all are asked for.
import type { CompareRowView } from '@/lib/views';

/** unchanged steps shown around a change before the rest of them fold away */
export const CONTEXT_ROWS = 2;
/** a comparison this short is shown whole */
export const FOLD_ABOVE_ROWS = 12;
/** nothing changed: shown whole up to this many rows (tokens and times side by side are what is left to see) */
export const FOLD_IDENTICAL_ABOVE_ROWS = 200;

export type Shown = { kind: 'row'; row: CompareRowView; index: number } | { kind: 'fold'; count: number; from: number };

/** the rows to draw: every changed row with a little context; the rest folded, unless all are asked for */
export function visibleRows(rows: readonly CompareRowView[], showAll: boolean): Shown[] {
  const isIdentical = rows.every((r) => r.change === 'same');
  if (showAll || rows.length <= FOLD_ABOVE_ROWS || (isIdentical && rows.length <= FOLD_IDENTICAL_ABOVE_ROWS)) return rows.map((row, index) => ({ kind: 'row', row, index }));
  const near = rows.map(() => false);
  rows.forEach((r, i) => {
    if (r.change === 'same') return;
    for (let j = Math.max(0, i - CONTEXT_ROWS); j <= Math.min(rows.length - 1, i + CONTEXT_ROWS); j++) near[j] = true;
  });
  const out: Shown[] = [];
  rows.forEach((row, index) => {
    const last = out[out.length - 1];
    if (near[index]) out.push({ kind: 'row', row, index });
    else if (last?.kind === 'fold') last.count++;
    else out.push({ kind: 'fold', count: 1, from: index });
  });
  return out;
}
