/**
 * `POST /api/runs/<id>/abort`: end a run as aborted because a user asked, from
 * the app — an interrupted run at once, a run being driven (here, by a CLI or
 * by a worker) as soon as its driver hears of the request: the answer waits up
 * to ABORT_WAIT_MS for that (200 `aborted`), else says `aborting` (202). The
 * run's error says who asked (`requestedBy: "user"`, `via: "app"`, the reason),
 * so the inspector never takes it for an abort a failing step caused. Its
 * running run_skill children are aborted too.
 */
import type { AbortRunBody, AbortedRunView } from '../../views';
import type { Host } from '../host';
import { awaitAbort } from './await-abort';
import { abortSkillRun } from './resume-run';

/** `body.via: "cli"`: a `stagecraft abort` through the app, recorded as asked by the CLI (`requestedBy`), as on the store */
export async function requestAbort(host: Host, runId: string, body: AbortRunBody, waitMs?: number): Promise<AbortedRunView> {
  const asker = body?.via === 'cli' ? { via: 'cli' as const, requestedBy: body.requestedBy ?? 'cli' } : { via: 'app' as const, requestedBy: 'the app' };
  const { outcome, children } = await abortSkillRun(host, runId, body?.reason ?? 'asked for in the app', asker);
  const landed = await awaitAbort(host, outcome, waitMs);
  return { runId, status: landed.status, error: landed.status === 'aborted' ? (landed.run.error ?? {}) : null, abortedChildren: children };
}
