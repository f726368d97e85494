/**
 * What the app does when its server starts — in the background, so the
 * server answers its first request while it goes on: start the sandbox's
 * spawner (lib/sandbox/spawner.ts: workers are spawned by it, never forked
 * from the big server process; appHost waits for it, so no run starts
 * before it is up), open the store (embedded unless DATABASE_URL is set),
 * load the example skills as skills (load-examples.ts says when a version is
 * added; the skills list waits for them: `examplesLoaded`), hand every
 * interrupted or queued run to the admission (run-admission.ts), which
 * drives them in the background, STAGECRAFT_MAX_RUNS at once — or, with
 * STAGECRAFT_WORKERS=external, to the workers (a job each on the run queue;
 * one already waiting is not doubled) — and remove finished runs' workspaces
 * once past their retention. Called once from instrumentation.ts.
 *
 * What stops the start is settled before it returns, as before: an unusable
 * STAGECRAFT_SANDBOX (`required` without bubblewrap). A failure later (the
 * store cannot open, the examples cannot be loaded) is logged, and the pages
 * say it (the store's status; the home page's note on the examples).
 */
import { admitRecordedRuns, runAdmission } from '../runs/run-admission';
import { scheduleWorkspaceSweeps } from '../runs/sweep-workspaces';
import { loadExampleSkills } from '../skills/load-examples';
import { appHost, examplesDir } from './app-host';
import { cgroupStatus } from '../../sandbox/cgroups';
import { isolationFor, noIsolationWarning, sandboxMode } from '../../sandbox/isolation';
import { startSpawner } from '../../sandbox/spawner';
import { runQueueOf, workersSetting } from '../runs/run-source';
import { dataDirOf } from '../host';
import { counted, plural } from '../../kernel/plural';
import { serverLog } from '../log';

/** How loading the example skills went: their names, or why it failed (the home page says it). */
export type ExamplesLoad = { ok: true; names: string[] } | { ok: false; message: string };

type BootState = { examples: Promise<ExamplesLoad>; done: Promise<void> };
// on globalThis: Next bundles instrumentation.ts and the routes apart, each with its own copy of this module
const BOOT = Symbol.for('stagecraft.boot');
type Holder = { [BOOT]?: BootState };

/** Starts the app's start-up work and returns at once; `done` (returned) settles when all of it has. */
export function boot(): Promise<void> {
  const g = globalThis as Holder;
  if (g[BOOT]) return g[BOOT].done;
  // settled before anything runs, and before the server answers: STAGECRAFT_SANDBOX=required without bubblewrap stops the start
  // here (the probe's verdict is kept in the data dir: npm start's own check made it)
  const isolation = isolationFor(sandboxMode(process.env), { cacheDir: dataDirOf(process.env, process.cwd()) });
  const warning = noIsolationWarning(isolation, cgroupStatus());
  if (warning) serverLog.warn(`stagecraft: ${warning}`);
  // first, while this process is small: from now on sandbox workers are spawned by the spawner, never forked from here
  void startSpawner().then(
    (spawner) => serverLog.info(`stagecraft: sandbox spawner started (pid ${spawner.pid})`),
    (e) => serverLog.error(`stagecraft: starting the sandbox spawner failed (${(e as Error).message}); it is tried again on the next request`),
  );
  let settleExamples!: (load: ExamplesLoad) => void;
  const examples = new Promise<ExamplesLoad>((resolve) => (settleExamples = resolve));
  const done = startUp(settleExamples).catch((e) => {
    const message = (e as Error).message;
    settleExamples({ ok: false, message });
    serverLog.error(`stagecraft: start-up failed: ${message}`);
  });
  g[BOOT] = { examples, done };
  return done;
}

/** How loading the example skills went, once it has; null when the app did not boot here (nothing to wait for). */
export async function examplesLoaded(): Promise<ExamplesLoad | null> {
  return (globalThis as Holder)[BOOT]?.examples ?? null;
}

async function startUp(settleExamples: (load: ExamplesLoad) => void): Promise<void> {
  const host = await appHost();
  try {
    const names = await loadExampleSkills(host, examplesDir());
    settleExamples({ ok: true, names });
    serverLog.info(`stagecraft: store ready (${host.store.backend}), ${names.length} example skills loaded`);
  } catch (e) {
    // the app works without them: the home page says why they are missing
    settleExamples({ ok: false, message: (e as Error).message });
    serverLog.error(`stagecraft: loading the example skills failed: ${(e as Error).message}`);
  }
  scheduleWorkspaceSweeps(host, (e) => serverLog.warn(`stagecraft: removing old workspaces failed: ${(e as Error).message}`));
  const workers = workersSetting(host);
  if (workers.notice) serverLog.warn(`stagecraft: ${workers.notice}`);
  if (workers.mode === 'external') {
    // interrupted and queued runs alike have a snapshot: each gets a job
    const pending = await host.store.listResumable();
    const queue = await runQueueOf(host);
    for (const runId of pending) await queue.enqueue(runId);
    serverLog.info(`stagecraft: runs are driven by \`stagecraft worker\` processes (STAGECRAFT_WORKERS=external); ${plural(pending.length, 'waiting run')} handed to them`);
    return;
  }
  const admission = runAdmission(host.env);
  const { interrupted, queued } = await admitRecordedRuns(host, admission, (r) => {
    const how = r.outcome?.status ?? `not resumed (${String((r.error as Error)?.message)})`;
    serverLog.info(`stagecraft: resumed ${r.runId}: ${how}`);
  });
  if (interrupted + queued) {
    serverLog.info(`stagecraft: resuming ${plural(interrupted + queued, 'run')} (${counted(interrupted)} interrupted, ${counted(queued)} queued), at most ${counted(admission.limit)} at once (STAGECRAFT_MAX_RUNS)`);
  }
}
