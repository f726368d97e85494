// What `Check against past runs` says when there was nothing to check: a skill with no past run
// that reached its finish artifact (a new skill, or one whose runs all failed before it).
import type { RegressView } from '@/lib/views';

/** the sentence for a check that found no run to check and skipped none; null when there was something */
export function nothingToCheck(view: Pick<RegressView, 'skill' | 'checked' | 'skipped'>): string | null {
  if (view.checked > 0 || view.skipped.length > 0) return null;
  return `No past run of ${view.skill} reached its finish artifact, so there is nothing to check yet: run it, then check again.`;
}
