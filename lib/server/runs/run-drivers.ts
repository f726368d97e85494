/**
 * Which process drove each part of a run, read from its log: `run_started`,
 * `run_admitted` (a queued run taken up) and `run_resumed` record their driver
 * (a worker's id, host and pid; or the app or a CLI), and each drives until
 * the next one takes over. A queued run's `run_started` (`queued: true`) only
 * recorded it — nobody drove it until its admission — so it is no stretch. A pure
 * function of the events, so the API, the CLI and the inspector agree.
 */
import type { RunEvent } from '../../kernel/ports';
import { EVENT } from '../../kernel/events';
import type { RunDriverView } from '../../views';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

const TAKES_OVER: ReadonlySet<string> = new Set([EVENT.runStarted, EVENT.runAdmitted, EVENT.runResumed]);

export function runDrivers(events: readonly RunEvent[]): RunDriverView[] {
  const out: RunDriverView[] = [];
  for (const e of events) {
    // a queued run's run_started only recorded it: nobody drove it until its admission
    if (!TAKES_OVER.has(e.type) || (e.type === EVENT.runStarted && e.data.queued === true)) continue;
    const prev = out[out.length - 1];
    if (prev) prev.toSeq = e.seq - 1;
    const d = (e.data.driver ?? {}) as Record<string, unknown>;
    out.push({
      fromSeq: e.seq,
      toSeq: e.seq,
      at: e.at,
      kind: str(d.kind),
      worker: str(d.worker),
      host: str(d.host),
      pid: typeof d.pid === 'number' ? d.pid : null,
    });
  }
  const last = out[out.length - 1];
  if (last && events.length) last.toSeq = events[events.length - 1].seq;
  return out;
}
