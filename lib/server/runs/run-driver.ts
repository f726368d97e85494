/**
 * Whether anything may be driving a run, as a Postgres store can tell from outside: a running run's
 * claim held by some session (read from pg_locks, never taken), a queued run's workers seen alive.
 * One look, no waiting: `stagecraft events --follow` asks it every few seconds and decides when to say
 * so (two looks in a row for a claim: a worker takes it a moment after its job). The embedded store is
 * one process's, which knows without asking (cli/runs.ts), and a store without SQL cannot tell: null.
 */
import type { OpenedStore } from '../../store';
import { isClaimHeldAnywhere } from '../../store/claims';
import { listWorkersSeen } from '../../queue/worker-registry';
import { runStatusOf } from './run-status';

/** `unclaimed`: running, and no session holds its claim; `no-worker`: queued, and no worker is alive; null: driven, ended, or cannot tell */
export type Undriven = 'unclaimed' | 'no-worker' | null;

export async function undrivenLook(store: OpenedStore, runId: string): Promise<Undriven> {
  const sql = store.sql;
  if (store.backend !== 'postgres' || !sql) return null;
  const status = await runStatusOf(store, runId);
  if (status === 'running') return (await isClaimHeldAnywhere(sql, runId)) ? null : 'unclaimed';
  if (status === 'queued') return (await listWorkersSeen(sql)).every((w) => w.stoppedAt !== null) ? 'no-worker' : null;
  return null;
}
