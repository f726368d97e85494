/**
 * Recording a run for the workers instead of driving it here
 * (STAGECRAFT_WORKERS=external, `stagecraft run --queue`): the same checks as
 * a start — the skill compiles, the input fits the entry's contract, the
 * model is usable — then the run is recorded as `queued` and a job for it is
 * sent to the run queue. It answers at once; a `stagecraft worker` drives it.
 *
 * If the job cannot be sent after the run is recorded, the run stays queued
 * and the workers' sweep sends it (run-worker.ts): a queued run is never lost.
 */
import { UsageError } from '../../kernel/errors';
import type { Host } from '../host';
import { requireInputFits } from '../../skill/input-check';
import { prepareFolder, prepareStoredRun, queueStoredRun, type Prepared, type StartRunRequest, type StoredRunRequest } from './start-run';
import { runQueueOf } from './run-source';
import { serverLog } from '../log';

export type QueuedRun = { runId: string; status: 'queued' };

async function enqueuePrepared(host: Host, p: Prepared, req: StoredRunRequest | StartRunRequest): Promise<QueuedRun> {
  const queue = await runQueueOf(host);
  // recorded as the app's admission records a run it has no slot for: queued, resumable
  const runId = await queueStoredRun(host, p, req);
  await queue.enqueue(runId).catch((e: Error) => serverLog.error(`stagecraft: run ${runId} is queued; its job will be sent by a worker's sweep (${e.message})`));
  return { runId, status: 'queued' };
}

/** A stored version (the app's POST /api/runs), queued for the workers. */
export async function enqueueStoredRun(host: Host, req: StoredRunRequest): Promise<QueuedRun> {
  return enqueuePrepared(host, await prepareStoredRun(host, req), req);
}

/** A bundle folder (`stagecraft run DIR --queue`): its files become a version, queued for the workers. */
export async function enqueueSkillRun(host: Host, req: StartRunRequest): Promise<QueuedRun> {
  if (req.workspace !== undefined) {
    throw new UsageError("--workspace cannot be used with --queue: a worker drives the run, maybe on another machine, in a workspace of its own under its data dir. Drop --queue to run it here on that folder.");
  }
  const prepared = await prepareFolder(host, req.bundle);
  requireInputFits(prepared.plan, req.input);
  return enqueuePrepared(host, { ...prepared, model: req.model }, req);
}
