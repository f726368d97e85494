// What a row of the runs list says about how a run went, in the report's words: why it needs
// attention (`failed`, `aborted` by a step, or `blocked`), what failed in the error's own words
// (the line the run report shows), and the chart's series.
import type { RunListItemView } from '@/lib/views';
import { errorLine } from '@/components/inspector/failure-words';

export type AttentionWord = 'failed' | 'aborted' | 'blocked';

/** why a run needs attention, in the report's word (`attention`), or null when it does not */
export function attentionOf(r: Pick<RunListItemView, 'needsAttention' | 'status' | 'outcome'>): AttentionWord | null {
  if (!r.needsAttention) return null;
  if (r.status === 'failed' || r.outcome === 'failed') return 'failed';
  if (r.status === 'aborted') return 'aborted';
  return 'blocked';
}

/**
 * The kernel's words around a processor step's own error when it ended the run (`postprocessor step 0
 * (python, skill.md line 27) failed: `): where it failed, which the row shows as `failedAt`. A step
 * nested in an iterate is wrapped once more for each iterate around it: every wrapper goes.
 */
const STEP_WRAPPER = /^(?:(?:postprocessor|phase \S+ preprocessor) step \d+ \([^)]*\) failed: )+/;

/**
 * What failed, in the error's own words: the first line of the run's error, as the run report shows
 * the failed step's error (`python function total in total.py raised KeyError: 'count' (at total.py:3)`);
 * null when the run has no error message.
 */
export function failureWords(r: Pick<RunListItemView, 'errorMessage'>): string | null {
  if (!r.errorMessage) return null;
  const words = errorLine(r.errorMessage).replace(STEP_WRAPPER, '').trim();
  return words || null;
}
