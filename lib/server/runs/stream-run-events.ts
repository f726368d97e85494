/**
 * A run's events as they are recorded (`GET /api/runs/<id>/stream`, server-sent
 * events): everything after the caller's cursor (`Last-Event-ID` after a
 * dropped connection, or `?after=`), then each new event as it is appended,
 * then `end` once the run has ended.
 *
 * Efficient by construction: it reads only what is past its cursor, a page at
 * a time (readEvents with after and limit, in SQL), never the whole run. It
 * wakes when this process appends to the run (the store's onAppend), and
 * polls its cursor every POLL_MS for a run another process drives (a CLI
 * `resume`, a second app on the same Postgres): one indexed read that finds
 * nothing, and the run's status.
 */
import { RunNotFoundError, UsageError } from '../../kernel/errors';
import { MAX_SEQ, TERMINAL_EVENTS } from '../../kernel/events';
import type { RunStatus } from '../../kernel/ports';
import type { EventView, RunEndView } from '../../views';
import type { Host } from '../host';
import { eventView } from './list-run-events';
import { runStatusOf } from './run-status';

/** how often a stream looks for events another process appended */
export const POLL_MS = 1_000;
/** events read and sent at a time while catching up */
export const STREAM_PAGE = 500;

export type StreamedMessage = { event: 'message'; id: string; data: EventView } | { event: 'end'; data: RunEndView };

/** where a stream starts: the later of `?after=` and `Last-Event-ID` (the seq the browser last had) */
export function streamCursor(after: number | undefined, lastEventId: string | null): number {
  if (lastEventId === null || lastEventId === '') return after ?? 0;
  if (!/^\d{1,10}$/.test(lastEventId.trim())) throw new UsageError(`Last-Event-ID: ${JSON.stringify(lastEventId).slice(0, 40)} is not a seq; a stream's ids are the seqs of its events.`);
  const seq = Number(lastEventId);
  // ten digits can pass the largest seq: the database would refuse it mid-stream (a cut-off answer, logged as a bug)
  if (seq > MAX_SEQ) throw new UsageError(`Last-Event-ID: ${JSON.stringify(lastEventId)} is past the largest seq (${MAX_SEQ}); a stream's ids are the seqs of its events.`);
  return Math.max(after ?? 0, seq);
}

type StreamOptions = { after?: number; signal?: AbortSignal; pollMs?: number };

/** The stream of a run that exists (RunNotFoundError before anything is sent, so a missing run is a 404). */
export async function streamRunEvents(host: Pick<Host, 'store'>, runId: string, opts: StreamOptions = {}): Promise<AsyncGenerator<StreamedMessage>> {
  if (!(await runStatusOf(host.store, runId))) throw new RunNotFoundError(runId);
  return follow(host, runId, opts);
}

async function* follow(host: Pick<Host, 'store'>, runId: string, opts: StreamOptions): AsyncGenerator<StreamedMessage> {
  let cursor = opts.after ?? 0;
  let appended = false;
  let wake: (() => void) | null = null;
  const stopListening = host.store.onAppend?.((id, lastSeq) => {
    if (id !== runId || lastSeq <= cursor) return;
    appended = true;
    wake?.();
  });
  const aborted = () => opts.signal?.aborted === true;
  try {
    while (!aborted()) {
      appended = false;
      const page = await host.store.readEvents(runId, cursor, STREAM_PAGE);
      for (const e of page) {
        cursor = e.seq;
        yield { event: 'message', id: String(e.seq), data: eventView(e) };
        if (TERMINAL_EVENTS.has(e.type)) {
          yield { event: 'end', data: { runId, status: terminalStatus(e.type) } };
          return;
        }
      }
      if (page.length === STREAM_PAGE) continue;
      if (page.length === 0) {
        // a cursor at or past the end of an ended run (a reconnect after its last event): say so and stop
        const status = await runStatusOf(host.store, runId);
        if (status && status !== 'running' && status !== 'queued') {
          // …or a run that ended between the read above and this one (another process's abort commits its
          // run_aborted and its status at once): its last events first, then the end they say
          if ((await host.store.readEvents(runId, cursor, 1)).length > 0) continue;
          yield { event: 'end', data: { runId, status } };
          return;
        }
      }
      if (appended) continue;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          opts.signal?.removeEventListener('abort', done);
          wake = null;
          resolve();
        };
        const timer = setTimeout(done, opts.pollMs ?? POLL_MS);
        opts.signal?.addEventListener('abort', done, { once: true });
        wake = done;
      });
    }
  } finally {
    stopListening?.();
  }
}

function terminalStatus(type: string): RunStatus {
  return type === 'run_completed' ? 'completed' : type === 'run_failed' ? 'failed' : 'aborted';
}
