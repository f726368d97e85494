/**
 * What the app's compare view (/runs/compare?a=&b=) shows: the comparison of A and B — with A, when
 * only B is named, the last completed run of B's skill before it — and the other runs B is most
 * often set beside (its parent, its replays and forks, that last completed run), to switch to; when
 * there is no A to show, the skill's latest runs, to pick one from.
 *
 * Owns: that choice. Does not: compare (compare-runs.ts).
 */
import { RunNotFoundError } from '../../kernel/errors';
import type { CompareView } from '../../views';
import type { Host } from '../host';
import { compareRuns, lastCompletedBefore } from './compare-runs';

/** how many of the skill's latest runs are offered when B has no run to be set beside */
export const RECENT = 5;

/** a run to set beside B; `isLater`: it is derived from B or came after it, so it goes on the right */
export type CompareSuggestion = { runId: string; label: string; isLater: boolean };

export type ComparePage = {
  view: CompareView | null;
  /** A was not named: it is the last completed run of the skill before B */
  isBaseline: boolean;
  /** how A and B are related when one was derived from the other (a replay, a fork): said above the comparison */
  lineage: string | null;
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
  // nothing to set B beside yet: its skill's latest runs, so that A is picked rather than typed
  if (!left) {
    const named = new Set([b, ...suggestions.map((s) => s.runId)]);
    const recent = (await host.store.listRuns({ skillName: run.skillName, limit: RECENT + named.size })).filter((r) => !named.has(r.id)).slice(0, RECENT);
    for (const r of recent) suggestions.push({ runId: r.id, label: `${r.kind === 'run' ? 'another run' : `a ${r.kind}`} of ${run.skillName} (${r.status})`, isLater: r.createdAt > run.createdAt });
  }
  const view = left ? await compareRuns(host, left, b) : null;
  return {
    view,
    lineage: view?.lineage ?? null,
    isBaseline: a === null && left !== null,
    suggestions: suggestions.filter((s) => s.runId !== left),
  };
}

/**
 * What the page says when A or B names no run: every side that does not exist, in the page's words
 * (RunNotFoundError's message is the CLI's: "List runs with `stagecraft runs`").
 */
export async function missingRunsProblem(host: Pick<Host, 'store'>, a: string | null, b: string): Promise<string> {
  const sides: [string, string | null][] = [
    ['A', a],
    ['B', b],
  ];
  const missing: string[] = [];
  for (const [side, id] of sides) if (id && !(await host.store.getRun(id))) missing.push(`${id} (Run ${side})`);
  const named = missing.length > 1 ? `No run with id ${missing.join(' nor with id ')}` : `No run with id ${missing[0] ?? b}`;
  return `${named}. Check the id, or open a run from the Runs list and press Compare on its page.`;
}
