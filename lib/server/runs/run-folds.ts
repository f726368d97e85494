/**
 * The folds of the runs being inspected, kept per process: a run's log is
 * folded once and then extended by the events it records since (a running
 * run), never refolded — so a scrub step costs a store read of nothing new
 * and a read of the fold's index. The last few runs asked about are kept.
 *
 * A run recorded before request frames were logged has its frames rebuilt
 * from the skill.md text it recorded (the plan), when that still compiles.
 *
 * Owns: the cache. Does not: interpret events (lib/kernel/fold.ts).
 */
import path from 'node:path';
import { RunNotFoundError } from '../../kernel/errors';
import { RunFold } from '../../kernel/fold';
import { requestFrame } from '../../kernel/phase-runner';
import type { RunRecord, StorePort } from '../../kernel/ports';
import { compileSkill } from '../../skill/compile';

/** runs whose folds a process keeps (the least recently asked about is dropped first) */
export const FOLD_CACHE_RUNS = 16;

type Entry = { fold: RunFold; done: boolean };
const CACHES = new WeakMap<StorePort, Map<string, Entry>>();

export type FoldedRun = { run: RunRecord; fold: RunFold };

/** The run and its fold, up to date with its log. */
export async function foldRun(store: StorePort, runId: string): Promise<FoldedRun> {
  const run = await store.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  let cache = CACHES.get(store);
  if (!cache) CACHES.set(store, (cache = new Map()));
  let entry = cache.get(runId);
  cache.delete(runId);
  if (!entry) entry = { fold: new RunFold(runId), done: false };
  if (!entry.done) {
    entry.fold.append(await store.readEvents(runId, entry.fold.lastSeq));
    // a finished run's log is complete: read from the status seen before the events were
    entry.done = run.status !== 'running' && entry.fold.ended !== null;
    if (!entry.fold.fallbackFrame && entry.fold.visits.some((v) => v.frame === null)) entry.fold.fallbackFrame = framesFromText(run);
  }
  cache.set(runId, entry);
  while (cache.size > FOLD_CACHE_RUNS) cache.delete(cache.keys().next().value as string);
  return { run, fold: entry.fold };
}

/** the request frames of a run's skill.md text, when it compiles (a run recorded before frames were logged) */
function framesFromText(run: RunRecord): RunFold['fallbackFrame'] {
  try {
    const { plan } = compileSkill(run.skillText, { file: path.join(run.bundleDir, 'skill.md'), bundleDir: run.bundleDir });
    return (phase) => (plan.phases[phase] ? requestFrame({ plan }, plan.phases[phase]).frame : null);
  } catch {
    return () => null;
  }
}
