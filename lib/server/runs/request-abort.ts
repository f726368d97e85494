/**
 * `POST /api/runs/<id>/abort`: end an interrupted run as aborted because a
 * user asked, from the app. The run's error says so (`requestedBy: "user"`,
 * `via: "app"`, the reason), so the inspector never takes it for an abort a
 * failing step caused. Its running run_skill children are aborted first.
 */
import type { AbortedRunView } from '../../views';
import type { Host } from '../host';
import { abortSkillRun } from './resume-run';

export async function requestAbort(host: Host, runId: string, reason: string | undefined): Promise<AbortedRunView> {
  const { outcome, children } = await abortSkillRun(host, runId, reason ?? 'asked for in the app', { via: 'app', requestedBy: 'the app' });
  return { runId, status: 'aborted', error: outcome.error ?? {}, abortedChildren: children };
}
