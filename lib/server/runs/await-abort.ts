/**
 * How an abort asked of a run driven elsewhere lands: its driver hears of the
 * request within moments (lib/store/abort-poll.ts) and ends the run. The app's
 * route and `stagecraft abort` wait a few seconds for that, so a caller usually
 * hears `aborted`; past the wait they hear `aborting`, and the run ends on its
 * own (a dead driver's run ends when it is next resumed).
 */
import { RunFinishedError, RunNotFoundError } from '../../kernel/errors';
import type { RunRecord } from '../../kernel/ports';
import { isUnfinished, type AbortPending, type RunOutcome } from '../../kernel/runner';
import type { Host } from '../host';

/** how long the app's abort route waits for the run's driver to end it before answering 202 `aborting` */
export const ABORT_WAIT_MS = 5_000;
const POLL_MS = 100;

export type AbortLanded = { status: 'aborted'; run: RunRecord } | { status: 'aborting'; run: RunRecord };

/**
 * The run once the abort landed (`aborted`), or as it is after `waitMs` (`aborting`). A run that
 * ended otherwise meanwhile (it completed before its driver heard) is RunFinishedError.
 */
export async function awaitAbort(host: Host, outcome: RunOutcome | AbortPending, waitMs = ABORT_WAIT_MS): Promise<AbortLanded> {
  const giveUpAt = Date.now() + (outcome.status === 'aborting' ? waitMs : 0);
  for (;;) {
    const run = await host.store.getRun(outcome.runId);
    if (!run) throw new RunNotFoundError(outcome.runId);
    if (run.status === 'aborted') return { status: 'aborted', run };
    if (!isUnfinished(run.status)) throw new RunFinishedError(run.id, run.status);
    if (Date.now() >= giveUpAt) return { status: 'aborting', run };
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
