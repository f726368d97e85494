/**
 * What a worker does with a job: drive run X from wherever it is — start it
 * if it is queued, resume it if it was interrupted (its previous driver died,
 * stopped or lost its lease), or answer its end if it has one already (a job
 * sent twice, a run finished by someone else).
 *
 * `signal` lets the worker take the run back between two steps (SIGTERM, a
 * lost lease): the outcome is then `released` and the run stays resumable.
 */
import type { JsonObject } from '../../kernel/json';
import { RunNotFoundError } from '../../kernel/errors';
import type { RunOutcome } from '../../kernel/runner';
import type { Host } from '../host';
import { resumeSkillRun } from './resume-run';

export async function driveRun(host: Host, runId: string, opts: { driver: JsonObject; signal: AbortSignal }): Promise<RunOutcome> {
  const run = await host.store.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  if (run.status === 'failed' || run.status === 'aborted') return { runId, status: run.status, output: run.output, error: run.error, report: null };
  return resumeSkillRun(host, runId, opts);
}

/** how long a queued run may wait before a sweep sends its job again (its first send may have been lost) */
export const QUEUED_RESEND_AFTER_MS = 10_000;

/** Queued runs recorded more than QUEUED_RESEND_AFTER_MS ago: a worker's sweep sends them again (a waiting job is not doubled). */
export async function queuedRunsToResend(host: Pick<Host, 'store'>, now = Date.now()): Promise<string[]> {
  const queued = await host.store.listRuns({ status: ['queued'], limit: 1000 });
  return queued.filter((r) => r.updatedAt < now - QUEUED_RESEND_AFTER_MS).map((r) => r.id);
}
