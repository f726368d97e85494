/**
 * `GET /api/runs/<id>/timeline`: the run page's report and timeline — phase
 * visits, rounds, rung lanes, model turns, tool calls, processor steps, the
 * failures in order and the one to open on — built by the kernel from the
 * run's events (lib/kernel/timeline.ts), with cost when a price table is set.
 */
import { buildTimeline } from '../../kernel/timeline';
import { priceFor } from '../../kernel/prices';
import type { RunTimelineView } from '../../views/inspector';
import type { Host } from '../host';
import { foldRun } from './run-folds';
import { priceTableFrom } from './prices';

export async function getRunTimeline(host: Pick<Host, 'store' | 'env' | 'cwd'>, runId: string): Promise<RunTimelineView> {
  const { run, fold } = await foldRun(host.store, runId);
  return buildTimeline(fold, { price: priceFor(priceTableFrom(host.env, host.cwd), run.model) });
}
