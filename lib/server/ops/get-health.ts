/**
 * `GET /api/health`: whether the store answers, how code steps are confined
 * (isolation, and cgroup caps that do not hold: cgroups.ts cgroupStatus),
 * where runs are driven and how many wait, and the workers seen in the last
 * minute. Answered with 503 (and the same shape) when the store does not
 * answer, so a load balancer or a monitor can act on the status alone.
 */
import type { OpenedStore } from '../../store';
import type { HealthView } from '../../views';
import { cgroupStatus } from '../../sandbox/cgroups';
import { isolationFor, sandboxMode } from '../../sandbox/isolation';
import { listWorkersSeen } from '../../queue/worker-registry';
import type { Host } from '../host';
import { runQueueOf, workersSetting } from '../runs/run-source';
import { appHost } from '../app/app-host';
import { redactUrl } from '../../store/open-store';

export type Health = { view: HealthView; httpStatus: 200 | 503 };

export async function getHealth(host: Host): Promise<Health> {
  const store = host.store as Partial<OpenedStore>;
  const backend = store.backend ?? 'memory';
  const sandbox = sandboxHealth(host.env);
  const drivenBy = workersSetting(host).mode;
  const view: HealthView = {
    status: 'ok',
    store: { reachable: true, backend, location: store.location ?? '(in memory)' },
    sandbox,
    runs: { drivenBy, queueDepth: null, queued: null, running: null },
    workers: [],
  };
  try {
    const [queued, running] = await Promise.all([countRuns(host, 'queued'), countRuns(host, 'running')]);
    view.runs.queued = queued;
    view.runs.running = running;
    if (backend === 'postgres' && store.sql) view.workers = await listWorkersSeen(store.sql);
  } catch (e) {
    view.status = 'store_unreachable';
    view.store = { ...view.store, reachable: false, error: (e as Error).message };
    return { view, httpStatus: 503 };
  }
  if (backend === 'postgres') view.runs.queueDepth = await runQueueOf(host).then((q) => q.depth()).catch(() => null);
  return { view, httpStatus: 200 };
}

function sandboxHealth(env: Record<string, string | undefined>): HealthView['sandbox'] {
  const mode = sandboxMode(env);
  const cg = cgroupStatus();
  const cgroups = [cg.reason, cg.missed && `last worker outside its cgroup: ${cg.missed}`].filter(Boolean).join('; ');
  const caps = cgroups ? { cgroups } : {};
  try {
    const iso = isolationFor(mode);
    return iso.kind === 'none' ? { mode, isolated: false, reason: iso.reason, ...caps } : { mode, isolated: true, ...caps };
  } catch (e) {
    return { mode, isolated: false, reason: (e as Error).message, ...caps };
  }
}

function countRuns(host: Host, status: 'queued' | 'running'): Promise<number> {
  return host.store.countRuns({ status: [status] });
}

/** The app's health: its store may not even open (the database was away when the app started). */
export async function getAppHealth(env: Record<string, string | undefined> = process.env): Promise<Health> {
  let host: Host;
  try {
    host = await appHost();
  } catch (e) {
    return {
      httpStatus: 503,
      view: {
        status: 'store_unreachable',
        store: { reachable: false, backend: env.DATABASE_URL ? 'postgres' : 'pglite', location: env.DATABASE_URL ? redactUrl(env.DATABASE_URL) : (env.STAGECRAFT_DATA_DIR || '.stagecraft'), error: (e as Error).message },
        sandbox: sandboxHealth(env),
        runs: { drivenBy: env.STAGECRAFT_WORKERS === 'external' && env.DATABASE_URL ? 'external' : 'in-process', queueDepth: null, queued: null, running: null },
        workers: [],
      },
    };
  }
  return getHealth(host);
}
