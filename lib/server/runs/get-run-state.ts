/**
 * `GET /api/runs/<id>/state?seq=K`: the state of the run after events 1..K —
 * transcript, workspace, current phase, the processor chain's value, counts,
 * and what event K changed — read from the run's fold (lib/kernel/fold.ts),
 * which is kept between requests and extended by new events, so a scrub step
 * never refolds the log. K defaults to the last event; K = 0 is before the
 * first. Large values come as refs (`GET …/value`).
 */
import { EventNotFoundError } from '../../kernel/errors';
import { stateView } from '../../kernel/inspect';
import type { RunStateView } from '../../views/inspector';
import type { Host } from '../host';
import { foldRun } from './run-folds';

export async function getRunState(host: Pick<Host, 'store'>, runId: string, opts: { seq?: number } = {}): Promise<RunStateView> {
  const { fold } = await foldRun(host.store, runId);
  const seq = opts.seq ?? fold.lastSeq;
  if (!Number.isInteger(seq) || seq < 0 || seq > fold.lastSeq) throw new EventNotFoundError(runId, seq, fold.lastSeq);
  return stateView(fold, seq);
}
