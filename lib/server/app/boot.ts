/**
 * What the app does when its server starts: open the store (embedded unless
 * DATABASE_URL is set), load the example skills as skills (load-examples.ts
 * says when a version is added), and resume every interrupted run in the
 * background — or, with STAGECRAFT_WORKERS=external, hand the interrupted and
 * queued runs to the workers (a job each; one already waiting is not doubled).
 * Called once from instrumentation.ts.
 */
import { resumeAllRuns } from '../runs/resume-run';
import { loadExampleSkills } from '../skills/load-examples';
import { appHost, examplesDir } from './app-host';
import { noIsolationWarning } from '../../sandbox/isolation';
import { runQueueOf, workersSetting } from '../runs/run-source';

export async function boot(): Promise<void> {
  const host = await appHost();
  // settled before anything runs: STAGECRAFT_SANDBOX=required without bubblewrap stops the start here
  const warning = noIsolationWarning(host.isolation());
  if (warning) console.warn(`stagecraft: ${warning}`);
  const skills = await loadExampleSkills(host, examplesDir());
  console.log(`stagecraft: store ready (${host.store.backend}), ${skills.length} example skills loaded`);
  const workers = workersSetting(host);
  if (workers.notice) console.warn(`stagecraft: ${workers.notice}`);
  const pending = await host.store.listResumable();
  if (workers.mode === 'external') {
    const queued = (await host.store.listRuns({ status: ['queued'], limit: 10_000 })).map((r) => r.id);
    const queue = await runQueueOf(host);
    for (const runId of [...pending, ...queued]) await queue.enqueue(runId);
    console.log(`stagecraft: runs are driven by \`stagecraft worker\` processes (STAGECRAFT_WORKERS=external); ${pending.length + queued.length} waiting run(s) handed to them`);
    return;
  }
  if (pending.length === 0) return;
  console.log(`stagecraft: resuming ${pending.length} interrupted run(s)`);
  void resumeAllRuns(host, pending, (r, i, n) => {
    const how = r.outcome?.status ?? `not resumed (${String((r.error as Error)?.message)})`;
    console.log(`stagecraft: [${i + 1}/${n}] resumed ${r.runId}: ${how}`);
  });
}
