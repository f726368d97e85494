/**
 * What the app does when its server starts: start the sandbox's spawner
 * (lib/sandbox/spawner.ts: workers are spawned by it, never forked from the
 * big server process), open the store (embedded unless
 * DATABASE_URL is set), load the example skills as skills (load-examples.ts
 * says when a version is added), hand every interrupted or queued run to
 * the admission (run-admission.ts), which drives them in the background,
 * STAGECRAFT_MAX_RUNS at once — or, with STAGECRAFT_WORKERS=external, to the
 * workers (a job each on the run queue; one already waiting is not doubled) —
 * and remove finished runs' workspaces once past their retention. Called once
 * from instrumentation.ts.
 */
import { admitRecordedRuns, runAdmission } from '../runs/run-admission';
import { scheduleWorkspaceSweeps } from '../runs/sweep-workspaces';
import { loadExampleSkills } from '../skills/load-examples';
import { appHost, examplesDir } from './app-host';
import { noIsolationWarning } from '../../sandbox/isolation';
import { startSpawner } from '../../sandbox/spawner';
import { runQueueOf, workersSetting } from '../runs/run-source';

export async function boot(): Promise<void> {
  // first, while this process is small: from now on sandbox workers are spawned by the spawner, never forked from here
  const spawner = await startSpawner();
  console.log(`stagecraft: sandbox spawner started (pid ${spawner.pid})`);
  const host = await appHost();
  // settled before anything runs: STAGECRAFT_SANDBOX=required without bubblewrap stops the start here
  const warning = noIsolationWarning(host.isolation());
  if (warning) console.warn(`stagecraft: ${warning}`);
  const skills = await loadExampleSkills(host, examplesDir());
  console.log(`stagecraft: store ready (${host.store.backend}), ${skills.length} example skills loaded`);
  scheduleWorkspaceSweeps(host, (e) => console.warn(`stagecraft: removing old workspaces failed: ${(e as Error).message}`));
  const workers = workersSetting(host);
  if (workers.notice) console.warn(`stagecraft: ${workers.notice}`);
  if (workers.mode === 'external') {
    // interrupted and queued runs alike have a snapshot: each gets a job
    const pending = await host.store.listResumable();
    const queue = await runQueueOf(host);
    for (const runId of pending) await queue.enqueue(runId);
    console.log(`stagecraft: runs are driven by \`stagecraft worker\` processes (STAGECRAFT_WORKERS=external); ${pending.length} waiting run(s) handed to them`);
    return;
  }
  const admission = runAdmission(host.env);
  const { interrupted, queued } = await admitRecordedRuns(host, admission, (r) => {
    const how = r.outcome?.status ?? `not resumed (${String((r.error as Error)?.message)})`;
    console.log(`stagecraft: resumed ${r.runId}: ${how}`);
  });
  if (interrupted + queued) {
    console.log(`stagecraft: resuming ${interrupted} interrupted and ${queued} queued run(s), at most ${admission.limit} at once (STAGECRAFT_MAX_RUNS)`);
  }
}
