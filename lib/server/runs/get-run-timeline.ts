/**
 * `GET /api/runs/<id>/timeline`: the run page's report and timeline — phase
 * visits, rounds, rung lanes, model turns, tool calls, processor steps, the
 * failures in order and the one to open on — built by the kernel from the
 * run's events (lib/kernel/timeline.ts), with cost when a price table is set.
 * Built once per state of the log: asked again before the run records more,
 * the same view is answered. `from` and `limit` cut a window of its visits
 * (the rest come as the outline): a run page reads a long run a page at a time.
 */
import { buildTimeline } from '../../kernel/timeline';
import { timelineWindow, windowStartFor } from '../../kernel/timeline-window';
import { priceFor } from '../../kernel/prices';
import type { RunFold } from '../../kernel/fold';
import { TIMELINE_PAGE_VISITS, type RunTimelineView } from '../../views/inspector';
import type { Host } from '../host';
import { foldRun } from './run-folds';
import { priceTableFrom } from './prices';

const BUILT = new WeakMap<RunFold, { lastSeq: number; price: string; view: RunTimelineView }>();

export type TimelineWindowAsk = { from?: number; limit?: number };

export async function getRunTimeline(host: Pick<Host, 'store' | 'env' | 'cwd'>, runId: string, ask: TimelineWindowAsk = {}): Promise<RunTimelineView> {
  const view = await wholeTimeline(host, runId);
  if (ask.from === undefined && ask.limit === undefined) return view;
  return timelineWindow(view, ask.from ?? 0, ask.limit ?? TIMELINE_PAGE_VISITS);
}

/** what the run page opens on: the page of visits that holds the item it selects (a failed run's first failure), else the first */
export async function getRunTimelineOpening(host: Pick<Host, 'store' | 'env' | 'cwd'>, runId: string): Promise<RunTimelineView> {
  const view = await wholeTimeline(host, runId);
  return timelineWindow(view, windowStartFor(view, view.selected, TIMELINE_PAGE_VISITS), TIMELINE_PAGE_VISITS);
}

async function wholeTimeline(host: Pick<Host, 'store' | 'env' | 'cwd'>, runId: string): Promise<RunTimelineView> {
  const { run, fold } = await foldRun(host.store, runId);
  const price = priceFor(priceTableFrom(host.env, host.cwd), run.model);
  const key = JSON.stringify(price);
  const built = BUILT.get(fold);
  if (built && built.lastSeq === fold.lastSeq && built.price === key) return built.view;
  const view = buildTimeline(fold, { price });
  BUILT.set(fold, { lastSeq: fold.lastSeq, price: key, view });
  return view;
}
