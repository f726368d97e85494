/**
 * Where a failed or aborted run is rerun from: the run page's `Rerun from here`
 * (RunView.rerunFrom, `rerunPoint`; the page derives nothing of its own) and
 * the fork `{}` (`stagecraft fork RUN` with no --at, fork-run.ts). They agree
 * but for a run aborted on request: it failed nowhere, so the page offers no
 * rerun point, while the fork with no point takes it on from the phase it
 * stopped in (failedStepPosition) — continuing a run its user stopped.
 */
import { EVENT } from '../../kernel/events';
import { isJsonObject } from '../../kernel/json';
import { POST_PHASE } from '../../kernel/plan';
import { absorbedFailures } from '../../kernel/report';
import type { RunEvent } from '../../kernel/ports';

/**
 * Where a failed or aborted run failed: its failed step (a processor step, a crashed stage, a
 * failed tool call the run could not get past), else the phase it stopped in. A nested step whose
 * failure an enclosing iterate skipped (or emptied) did not stop the run: what came after did.
 */
export function failedStepPosition(events: readonly RunEvent[]): string | null {
  const absorbed = absorbedFailures(events);
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === EVENT.stepCompleted && e.data.status === 'failed' && !absorbed.has(String(e.data.position))) return String(e.data.position);
  }
  const end = events[events.length - 1];
  const err = end && isJsonObject(end.data.error) ? end.data.error : null;
  if (!err) return null;
  if (typeof err.position === 'string') return err.position;
  if (err.phase === POST_PHASE) return POST_PHASE;
  // the phase the run stopped in: its last visit's start
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === EVENT.phaseStarted && e.data.phase === err.phase) return Number(e.data.visit) > 1 ? `${String(e.data.phase)}#${String(e.data.visit)}` : String(e.data.phase);
  }
  return null;
}

/** whether an aborted run's end says it was aborted on request (nothing of the run failed) */
function abortedOnRequest(events: readonly RunEvent[]): boolean {
  const end = events[events.length - 1];
  if (!end || end.type !== EVENT.runAborted) return false;
  const abort = isJsonObject(end.data.abort) ? end.data.abort : null;
  if (abort) return abort.by === 'request';
  const err = isJsonObject(end.data.error) ? end.data.error : null;
  return String(err?.message ?? '').startsWith('aborted on request'); // a log written before the abort was recorded
}

/**
 * The run view's `rerunFrom`: where a failed run, or one aborted by a step or a contract, is rerun
 * from (`failedStepPosition`); none for a run that completed, is still going, or was aborted on
 * request (it failed nowhere).
 */
export function rerunPoint(status: string, events: readonly RunEvent[]): string | null {
  if (status === 'failed') return failedStepPosition(events);
  if (status === 'aborted' && !abortedOnRequest(events)) return failedStepPosition(events);
  return null;
}
