/**
 * The scrubber's `Visit` fact beside its `Phase`: which visit of the phase it was (`1`, `2`, …),
 * not the visit's key (`draft`, `draft#2`), which said the phase's name again ("Phase draft ·
 * Visit draft"). The postprocessor is visited once and has no number: `—`, as for no visit.
 */
import type { RunStateView } from '@/lib/views/inspector';

export function visitWords({ phase, visit }: Pick<RunStateView, 'phase' | 'visit'>): string {
  if (visit === null || phase === null || visit === phase) return visit === null || visit === '__post__' ? '—' : '1';
  const n = visit.startsWith(`${phase}#`) ? visit.slice(phase.length + 1) : '';
  return /^\d+$/.test(n) ? n : visit;
}
