/**
 * The scrubber's `Visit` fact beside its `Phase`: which visit of the phase it was (`1`, `2`, …),
 * not the visit's key (`draft`, `draft#2`), which said the phase's name again ("Phase draft ·
 * Visit draft"). The postprocessor is visited once and has no number: `—`, as for no visit. And
 * what a processor chain's value shown is: what a step left, what a failed step was handed, its input,
 * or a fork's edit.
 */
import type { RunStateView } from '@/lib/views/inspector';

export function visitWords({ phase, visit }: Pick<RunStateView, 'phase' | 'visit'>): string {
  if (visit === null || phase === null || visit === phase) return visit === null || visit === '__post__' ? '—' : '1';
  const n = visit.startsWith(`${phase}#`) ? visit.slice(phase.length + 1) : '';
  return /^\d+$/.test(n) ? n : visit;
}

/**
 * what the chain's value is: what a step left, its input — or a fork's edit, made at its point. A
 * step that failed left nothing: the value is what it was handed, and the words say so (before, a
 * failed `__post__/1` read "after __post__/1" over what `__post__/0` left).
 */
export function chainWords(chain: NonNullable<RunStateView['chain']>): string {
  if (!chain.editedAt) return chain.step ? stepWords(chain.step, chain.stepStatus) : 'its input';
  if (chain.editedOver !== undefined) return editedInputWords(chain.editedAt, chain.editedOver);
  return `the input of ${chain.editedAt}, edited at the fork point — the fork's value, in place of ${chain.step ? `what ${chain.step} left` : 'the one recorded'}`;
}

function stepWords(step: string, status: 'failed' | 'skipped' | undefined): string {
  if (status === 'failed') return `before ${step} (it failed): the value it was handed`;
  if (status === 'skipped') return `after ${step}, which failed and was skipped: the value it was handed, unchanged`;
  return `after ${step}`;
}

/**
 * A fork's edit of the value flowing in at a start — a phase's input, the finish artifact at
 * `__post__` — said as a step's edited input is: what was edited, and in place of what (`over`: the
 * phase visit that made it; null: the run's input)
 */
export function editedInputWords(at: string, over: string | null): string {
  const what = at === '__post__' ? '__post__ (the finish artifact)' : `phase ${at}`;
  return `the input of ${what}, edited at the fork point — the fork's value, in place of ${over === null ? "the run's input" : `what phase ${over} left`}`;
}
