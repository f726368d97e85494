// What a row of the runs list says about how a run went, in the report's words: why it needs
// attention (`failed`, `aborted` by a step, or `blocked`), and the chart's series.
import type { RunListItemView } from '@/lib/views';

export type AttentionWord = 'failed' | 'aborted' | 'blocked';

/** why a run needs attention, in the report's word (`attention`), or null when it does not */
export function attentionOf(r: Pick<RunListItemView, 'needsAttention' | 'status' | 'outcome'>): AttentionWord | null {
  if (!r.needsAttention) return null;
  if (r.status === 'failed' || r.outcome === 'failed') return 'failed';
  if (r.status === 'aborted') return 'aborted';
  return 'blocked';
}
