/**
 * `POST /api/runs`: start a stored version in the server and answer with its
 * id as soon as it is recorded; the run goes on in the background, and a
 * server restart resumes it like any interrupted run. What would refuse the
 * run (an invalid skill, an input against the entry's contract, an unusable
 * model, an unknown skill or version) is a 4xx before anything is recorded.
 * With STAGECRAFT_WORKERS=external (and a Postgres store) the run is queued
 * for the workers instead (enqueue-run.ts), after the same checks.
 */
import type { StartRunBody } from '../../views';
import type { Host } from '../host';
import { launchStoredRun } from './start-run';
import { enqueueStoredRun } from './enqueue-run';
import { workersSetting } from './run-source';

export async function launchRun(host: Host, body: StartRunBody): Promise<{ runId: string }> {
  if (workersSetting(host).mode === 'external') {
    const { runId } = await enqueueStoredRun(host, { skill: body.skill, version: body.version, input: body.input as never, model: body.model });
    return { runId };
  }
  const { runId, done } = await launchStoredRun(host, { skill: body.skill, version: body.version, input: body.input as never, model: body.model });
  done.then(
    (o) => console.log(`stagecraft: run ${runId} of ${body.skill}: ${o.status}`),
    (e) => console.error(`stagecraft: run ${runId} of ${body.skill} stopped: ${(e as Error).message}`),
  );
  return { runId };
}
