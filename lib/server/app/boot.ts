/**
 * What the app does when its server starts: open the store (embedded unless
 * DATABASE_URL is set), load the example skills as skills (load-examples.ts
 * says when a version is added), resume every interrupted run in the
 * background, and remove finished runs' workspaces once past their
 * retention. Called once from instrumentation.ts.
 */
import { resumeAllRuns } from '../runs/resume-run';
import { scheduleWorkspaceSweeps } from '../runs/sweep-workspaces';
import { loadExampleSkills } from '../skills/load-examples';
import { appHost, examplesDir } from './app-host';
import { noIsolationWarning } from '../../sandbox/isolation';

export async function boot(): Promise<void> {
  const host = await appHost();
  // settled before anything runs: STAGECRAFT_SANDBOX=required without bubblewrap stops the start here
  const warning = noIsolationWarning(host.isolation());
  if (warning) console.warn(`stagecraft: ${warning}`);
  const skills = await loadExampleSkills(host, examplesDir());
  console.log(`stagecraft: store ready (${host.store.backend}), ${skills.length} example skills loaded`);
  scheduleWorkspaceSweeps(host, (e) => console.warn(`stagecraft: removing old workspaces failed: ${(e as Error).message}`));
  const pending = await host.store.listResumable();
  if (pending.length === 0) return;
  console.log(`stagecraft: resuming ${pending.length} interrupted run(s)`);
  void resumeAllRuns(host, pending, (r, i, n) => {
    const how = r.outcome?.status ?? `not resumed (${String((r.error as Error)?.message)})`;
    console.log(`stagecraft: [${i + 1}/${n}] resumed ${r.runId}: ${how}`);
  });
}
