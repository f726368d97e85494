/**
 * Where a failed or aborted run is rerun from when no point is named: the fork
 * `{}` (`stagecraft fork RUN` with no --at) takes, and the run page's
 * `Rerun from here` offers (RunView.rerunFrom) — one answer for both.
 */
import { EVENT } from '../../kernel/events';
import { isJsonObject } from '../../kernel/json';
import { POST_PHASE } from '../../kernel/plan';
import type { RunEvent } from '../../kernel/ports';

/**
 * Where a failed or aborted run failed: its failed step (a processor step, a crashed stage, a
 * failed tool call the run could not get past), else the phase it stopped in.
 */
export function failedStepPosition(events: readonly RunEvent[]): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === EVENT.stepCompleted && e.data.status === 'failed') return String(e.data.position);
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
