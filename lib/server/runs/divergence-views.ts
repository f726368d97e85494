/** Kernel comparisons (lib/kernel/compare.ts) as the views the API, the CLI and the browser share. */
import type { CompareRow, Comparison, Divergence } from '../../kernel/compare';
import type { CompareDivergenceView, CompareRowView, ReplayDivergenceView } from '../../views';

export function compareDivergenceView(d: Divergence): CompareDivergenceView {
  return { position: d.position, kind: d.kind, change: d.change, diff: d.diff, message: d.message, a: d.a, b: d.b };
}

/** In a replay, A is the recorded run and B its replay. */
export function replayDivergenceView(d: Divergence): ReplayDivergenceView {
  return { position: d.position, kind: d.kind, change: d.change, diff: d.diff, message: d.message, recorded: d.a, replayed: d.b };
}

export function compareRowView(r: CompareRow): CompareRowView {
  const step = (s: CompareRow['a']) => (s ? { seq: s.seq, status: s.status, durationMs: s.durationMs, tokens: s.tokens, recorded: s.recorded, ...(s.tokensNotReported ? { tokensNotReported: true as const } : {}) } : null);
  return { position: r.position, kind: r.kind, change: r.change, a: step(r.a), b: step(r.b) };
}

/** how many of B's steps were answered from a recording, and how many really ran */
export function stepCounts(c: Comparison): { compared: number; answered: number; executed: number } {
  let answered = 0;
  let executed = 0;
  for (const r of c.rows) {
    if (!r.b) continue;
    if (r.b.recorded) answered++;
    else executed++;
  }
  return { compared: c.rows.length, answered, executed };
}
