/**
 * `POST /api/runs/<id>/abort`: end a run as aborted because a user asked, from
 * the app — an interrupted run at once, a run being driven (here, by a CLI or
 * by a worker) as soon as its driver hears of the request: the answer waits up
 * to ABORT_WAIT_MS for that (200 `aborted`), else says `aborting` (202). The
 * run's error says who asked (`requestedBy: "user"`, `via: "app"`, the reason),
 * so the inspector never takes it for an abort a failing step caused. Its
 * running run_skill children are aborted too.
 */
import type { AbortedRunView } from '../../views';
import type { Host } from '../host';
import { awaitAbort } from './await-abort';
import { abortSkillRun } from './resume-run';

export async function requestAbort(host: Host, runId: string, reason: string | undefined, waitMs?: number): Promise<AbortedRunView> {
  const { outcome, children } = await abortSkillRun(host, runId, reason ?? 'asked for in the app', { via: 'app', requestedBy: 'the app' });
  const landed = await awaitAbort(host, outcome, waitMs);
  return { runId, status: landed.status, error: landed.status === 'aborted' ? (landed.run.error ?? {}) : null, abortedChildren: children };
}
