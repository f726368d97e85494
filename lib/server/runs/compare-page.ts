/**
 * What the app's compare view (/runs/compare?a=&b=) shows: the comparison of A and B — with A, when
 * only B is named, the last completed run of B's skill before it — and the other runs B is most
 * often set beside (its parent, its replays and forks, that last completed run), to switch to.
 *
 * Owns: that choice. Does not: compare (compare-runs.ts).
 */
import { RunNotFoundError } from '../../kernel/errors';
import type { CompareView } from '../../views';
import type { Host } from '../host';
import { compareRuns, lastCompletedBefore } from './compare-runs';

/** a run to set beside B; `isLater`: it is derived from B, so it goes on the right */
export type CompareSuggestion = { runId: string; label: string; isLater: boolean };

export type ComparePage = {
  view: CompareView | null;
  /** A was not named: it is the last completed run of the skill before B */
  isBaseline: boolean;
  suggestions: CompareSuggestion[];
};

export async function comparePage(host: Pick<Host, 'store' | 'skills'>, a: string | null, b: string): Promise<ComparePage> {
  const run = await host.store.getRun(b);
  if (!run) throw new RunNotFoundError(b);
  const [baseline, derived] = await Promise.all([lastCompletedBefore(host, run), host.store.listRuns({ parentRunId: b, kind: ['replay', 'fork'], limit: 20 })]);
  const suggestions: CompareSuggestion[] = [];
  if (run.parentRunId && (run.kind === 'fork' || run.kind === 'replay')) suggestions.push({ runId: run.parentRunId, label: `its parent (B is a ${run.kind} of it)`, isLater: false });
  if (baseline && baseline.id !== run.parentRunId) suggestions.push({ runId: baseline.id, label: 'the last completed run of the skill before it', isLater: false });
  for (const d of derived) suggestions.push({ runId: d.id, label: `its ${d.kind}${d.forkPoint ? ` from ${d.forkPoint}` : ''} (${d.status})`, isLater: true });
  const left = a ?? baseline?.id ?? null;
  return {
    view: left ? await compareRuns(host, left, b) : null,
    isBaseline: a === null && left !== null,
    suggestions: suggestions.filter((s) => s.runId !== left),
  };
}
