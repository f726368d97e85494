// Positions of a run as its page's view (RunView) knows them: where it failed, and the points a
// fork can start from that the view names. The inspector's timeline knows every position; this is
// what the plain run page can offer (any other position may still be typed).
import { FORK_POINT_FINISH, FORK_POINT_INPUT, type RunView } from '@/lib/views';

/**
 * where a failed or aborted run failed: its failed step, its failed stage, or where its error was raised
 * — else, for a failed run, where the server reruns it from (the phase it stopped in: a finish its
 * contract refused after the retry, a model turn that did not come)
 */
export function failedPosition(run: Pick<RunView, 'status' | 'report' | 'error' | 'rerunFrom'>): string | null {
  if (run.status !== 'failed' && run.status !== 'aborted') return null;
  const report = run.report;
  const fromError = run.error && typeof run.error.position === 'string' ? run.error.position : null;
  return report?.failed_step?.position ?? report?.failed_stage?.position ?? report?.error?.position ?? fromError ?? run.rerunFrom ?? null;
}

/**
 * whether a run's failed position is a phase it stopped in (the server's `rerunFrom` when no step
 * failed: a finish its contract refused after the retry, a model turn that did not come) rather than
 * a step: a step's position names its phase and more (`draft/r2/model`, `__post__/0`), a phase's does not
 */
export function isPhasePosition(run: Pick<RunView, 'rerunFrom'>, position: string): boolean {
  return position === run.rerunFrom && !position.includes('/');
}

/**
 * Where `Fork from here` opens on a failed run: a failed processor step's input (what the step was
 * given — its recorded result is the error, nothing to fork from), else the failed position itself
 * (a model turn, a tool outcome, a stage's contribution, each a value to put in its place).
 */
export function failedForkPosition(run: Pick<RunView, 'status' | 'report' | 'error' | 'rerunFrom'>): string | null {
  const at = failedPosition(run);
  if (at === null) return null;
  return run.report?.failed_step?.position === at ? `${at}/input` : at;
}

/** fork points the view names: the run input, each phase, the finish artifact, each processor step and what it was given */
export function forkPositions(run: Pick<RunView, 'steps' | 'traces' | 'status'>): string[] {
  const phases = [...new Set([...run.traces.map((t) => t.phase), ...run.steps.map((s) => s.phase)])].filter((p) => p !== FORK_POINT_FINISH);
  const steps = run.steps.flatMap((s) => [s.position, `${s.position}/input`]);
  const post = run.status === 'completed' || run.steps.some((s) => s.phase === FORK_POINT_FINISH) ? [FORK_POINT_FINISH] : [];
  return [FORK_POINT_INPUT, ...phases, ...post, ...steps];
}
