/**
 * `POST /api/runs/<id>/resume`: resume an interrupted run from the app, in the
 * background, answering once it is clear the resume holds: when the resumed
 * run records its first new step (its recorded steps replayed and matched), or
 * ends, or after RESUME_ANSWER_MS. What refuses a resume — a run that has
 * ended, one another process drives, a skill that changed under it (the
 * kernel's determinism error, thrown while the recorded steps are matched,
 * before anything new runs) — is the answer's 4xx.
 */
import { RunClaimedError, RunNotFoundError, RunNotResumableError } from '../../kernel/errors';
import type { ResumedRunView } from '../../views';
import type { Host } from '../host';
import { resumeSkillRun } from './resume-run';
import { serverLog } from '../log';
import { rerunPoint } from './failed-step';

/** the longest a resume request waits for its run to get past its recorded steps */
export const RESUME_ANSWER_MS = 2_000;

export async function requestResume(host: Host, runId: string, opts: { answerMs?: number } = {}): Promise<ResumedRunView> {
  const run = await host.store.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  if (run.status !== 'running') throw new RunNotResumableError(runId, `it has already ended (${run.status}); start a new run instead.${await takeOnNote(host, runId, run.status)}`);
  // the resume's own `run_resumed` is its first append; a second one is new work, past the replay
  let appends = 0;
  let pastReplay!: () => void;
  const movedOn = new Promise<null>((resolve) => (pastReplay = () => resolve(null)));
  const stop = host.store.onAppend?.((id) => {
    if (id === runId && ++appends >= 2) pastReplay();
  });
  const done = resumeSkillRun(host, runId);
  done.then(
    (o) => serverLog.info(`stagecraft: resumed run ${runId}: ${o.status}`),
    (e) => serverLog.error(`stagecraft: run ${runId} was not resumed: ${(e as Error).message}`),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const outcome = await Promise.race([done, movedOn, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), opts.answerMs ?? RESUME_ANSWER_MS)))]);
    if (outcome?.status === 'superseded') throw new RunClaimedError(runId, 'it is already being run, here or by another process; watch it, or abort it once it stops');
    // released (let go between steps: not here, where nothing asks it to) is still an unfinished run
    return { runId, status: outcome && outcome.status !== 'released' ? outcome.status : 'running' };
  } finally {
    clearTimeout(timer);
    stop?.();
  }
}

/**
 * For a run that ended failed, or aborted by a step or a contract: how to take it on from where it
 * failed, which a resume never does (the run page's Rerun from here). Nothing for any other run.
 */
async function takeOnNote(host: Host, runId: string, status: string): Promise<string> {
  const at = rerunPoint(status, await host.store.readEvents(runId));
  return at ? ` Or take it on from ${at}, where it failed: POST /api/runs/${runId}/fork with {} (the run page's Rerun from here).` : '';
}
