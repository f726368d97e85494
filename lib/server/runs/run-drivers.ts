/**
 * Which process drove each part of a run, read from its log: `run_started`
 * and `run_resumed` record their driver (a worker's id, host and pid; or the
 * app or a CLI), and each drives until the next one takes over. A pure
 * function of the events, so the API, the CLI and the inspector agree.
 */
import type { RunEvent } from '../../kernel/ports';
import { EVENT } from '../../kernel/events';
import type { RunDriverView } from '../../views';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function runDrivers(events: readonly RunEvent[]): RunDriverView[] {
  const out: RunDriverView[] = [];
  for (const e of events) {
    if (e.type !== EVENT.runStarted && e.type !== EVENT.runResumed) continue;
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
