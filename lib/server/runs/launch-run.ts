/**
 * `POST /api/runs`: start a stored version in the server and answer with its
 * id as soon as it is recorded; the run goes on in the background — at once
 * when the app drives fewer than STAGECRAFT_MAX_RUNS runs, else `queued` until
 * a slot frees (run-admission.ts) — and a server restart resumes it like any
 * interrupted run. With STAGECRAFT_WORKERS=external (and a Postgres store) it
 * is queued for the workers instead (enqueue-run.ts). What would refuse the
 * run (an invalid skill, an input against the entry's contract, an unusable
 * model, an unknown skill or version) is a 4xx before anything is recorded.
 */
import { setImmediate as turn } from 'node:timers/promises';
import type { StartRunBody } from '../../views';
import type { Host } from '../host';
import { launchAdmittedRun, runAdmission } from './run-admission';
import { enqueueStoredRun } from './enqueue-run';
import { workersSetting } from './run-source';
import { recordFiles } from './start-run';
import { serverLog } from '../log';

export async function launchRun(host: Host, body: StartRunBody): Promise<{ runId: string }> {
  // Each start does its work in a turn of the event loop of its own. Requests that arrive together
  // resume together (in one flush of promise callbacks, after the route's first await); without
  // this, 200 starts at once would run back to back as one stretch, and no read could be answered
  // until the last of them was recorded.
  await turn();
  // a bundle's files (the CLI's `run DIR` beside the app): recorded as a version first, then run as one
  const version = body.files ? await recordFiles(host, body.skill, body.files) : body.version;
  const req = { skill: body.skill, version, input: body.input as never, model: body.model };
  if (workersSetting(host).mode === 'external') return { runId: (await enqueueStoredRun(host, req)).runId };
  const { runId, done } = await launchAdmittedRun(host, req, runAdmission(host.env));
  done.then(
    (o) => serverLog.info(`stagecraft: run ${runId} of ${body.skill}: ${o.status}`),
    (e) => serverLog.error(`stagecraft: run ${runId} of ${body.skill} stopped: ${(e as Error).message}`),
  );
  return { runId };
}
