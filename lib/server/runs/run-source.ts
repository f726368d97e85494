/**
 * Where this process's runs are driven: here (the default: the app or the CLI
 * that starts a run drives it), or by `stagecraft worker` processes, when
 * STAGECRAFT_WORKERS=external — then a started run is recorded as `queued`
 * and a job for it goes on the run queue (lib/queue).
 *
 * The embedded store is one process's (its data-dir lock), so no worker can
 * reach it: with it, runs are always driven in process, and asking for
 * `external` gets a notice saying so instead.
 *
 * Owns: reading STAGECRAFT_WORKERS, and the process's one connection to the
 * queue (opened on first use). Does not: enqueue (enqueue-run.ts) or drive
 * (drive-run.ts).
 */
import { SettingsError, UsageError } from '../../kernel/errors';
import type { OpenedStore } from '../../store';
import type { RunQueue } from '../../queue/run-queue';
import type { Host } from '../host';
import { serverLog } from '../log';

export const WORKERS_MODES = ['in-process', 'external'] as const;
export type WorkersMode = (typeof WORKERS_MODES)[number];

export type WorkersSetting = { mode: WorkersMode; notice: string | null };

export const EMBEDDED_DRIVES_IN_PROCESS =
  'STAGECRAFT_WORKERS=external needs a Postgres store (set DATABASE_URL): the embedded store belongs to one process, so it drives its runs in this process.';

/** STAGECRAFT_WORKERS as set (`in-process` when unset); any other value is a UsageError. */
export function workersModeOf(env: Record<string, string | undefined>): WorkersMode {
  const raw = env.STAGECRAFT_WORKERS?.trim() || 'in-process';
  if (!(WORKERS_MODES as readonly string[]).includes(raw)) {
    throw new SettingsError(`STAGECRAFT_WORKERS=${raw}: it is one of ${WORKERS_MODES.join(', ')} (unset means in-process).`);
  }
  return raw as WorkersMode;
}

/** STAGECRAFT_WORKERS as this process can honour it (`in-process` when unset). */
export function workersSetting(host: Pick<Host, 'env' | 'store'>): WorkersSetting {
  const mode = workersModeOf(host.env);
  if (mode === 'external' && !databaseUrlOf(host)) return { mode: 'in-process', notice: EMBEDDED_DRIVES_IN_PROCESS };
  return { mode, notice: null };
}

/** The Postgres URL the store was opened on, or null for the embedded store (or a store in memory). */
export function databaseUrlOf(host: Pick<Host, 'store'>): string | null {
  const s = host.store as Partial<OpenedStore>;
  return s.backend === 'postgres' && s.databaseUrl ? s.databaseUrl : null;
}

const QUEUES = Symbol.for('stagecraft.run-queues');
type Holder = { [QUEUES]?: Map<string, Promise<RunQueue>> };

/**
 * The run queue in the store's database, shared by this process (the app's requests, a CLI
 * command). A failed open is tried again on the next call.
 */
export function runQueueOf(host: Pick<Host, 'store'>): Promise<RunQueue> {
  const url = databaseUrlOf(host);
  if (!url) return Promise.reject(new UsageError(EMBEDDED_DRIVES_IN_PROCESS));
  const g = globalThis as Holder;
  const queues = (g[QUEUES] ??= new Map());
  let q = queues.get(url);
  if (!q) {
    q = import('../../queue/run-queue').then(({ RunQueue }) =>
      RunQueue.open(url, { onError: (e) => serverLog.error(`stagecraft: run queue: ${e.message}`) }),
    );
    queues.set(url, q);
    q.catch(() => queues.delete(url));
  }
  return q;
}

/** Closes the queue connections this process opened (a CLI command, before it exits). */
export async function closeRunQueues(): Promise<void> {
  const g = globalThis as Holder;
  const queues = g[QUEUES];
  if (!queues) return;
  g[QUEUES] = undefined;
  await Promise.all([...queues.values()].map((q) => q.then((x) => x.close()).catch(() => undefined)));
}
