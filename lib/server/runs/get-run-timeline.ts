/**
 * `GET /api/runs/<id>/timeline`: the run page's report and timeline — phase
 * visits, rounds, rung lanes, model turns, tool calls, processor steps, the
 * failures in order and the one to open on — built by the kernel from the
 * run's events (lib/kernel/timeline.ts), with cost when a price table is set.
 * Built once per state of the log: asked again before the run records more,
 * the same view is answered.
 */
import { buildTimeline } from '../../kernel/timeline';
import { priceFor } from '../../kernel/prices';
import type { RunFold } from '../../kernel/fold';
import type { RunTimelineView } from '../../views/inspector';
import type { Host } from '../host';
import { foldRun } from './run-folds';
import { priceTableFrom } from './prices';

const BUILT = new WeakMap<RunFold, { lastSeq: number; price: string; view: RunTimelineView }>();

export async function getRunTimeline(host: Pick<Host, 'store' | 'env' | 'cwd'>, runId: string): Promise<RunTimelineView> {
  const { run, fold } = await foldRun(host.store, runId);
  const price = priceFor(priceTableFrom(host.env, host.cwd), run.model);
  const key = JSON.stringify(price);
  const built = BUILT.get(fold);
  if (built && built.lastSeq === fold.lastSeq && built.price === key) return built.view;
  const view = buildTimeline(fold, { price });
  BUILT.set(fold, { lastSeq: fold.lastSeq, price: key, view });
  return view;
}
