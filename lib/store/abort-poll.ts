/**
 * Abort requests heard across processes: the runs this process drives are
 * watched, and one query every ABORT_POLL_MS asks for the requests of all of
 * them at once (not one per run), so a thousand runs in flight cost one
 * indexed read per interval. A request recorded by this process is heard at
 * once, without waiting for the poll.
 *
 * Owns: the poll timer (running only while something is watched). Does not:
 * record requests (prisma-store.ts) or act on them (the kernel's runner).
 */
import { AbortWatchers } from '../kernel/abort-watchers';
import type { AbortRequest } from '../kernel/ports';

/** how often a driver looks for abort requests recorded by other processes */
export const ABORT_POLL_MS = 250;

export class AbortPoll {
  readonly watchers = new AbortWatchers();
  private timer: NodeJS.Timeout | null = null;
  private isPolling = false;
  private isClosed = false;

  constructor(
    private readonly read: (runIds: string[]) => Promise<AbortRequest[]>,
    private readonly intervalMs = ABORT_POLL_MS,
  ) {}

  watch(runId: string, fn: (req: AbortRequest) => void): () => void {
    const stop = this.watchers.add(runId, fn);
    this.schedule();
    return stop;
  }

  close(): void {
    this.isClosed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.timer || this.isClosed || this.watchers.isEmpty) return;
    this.timer = setTimeout(() => void this.tick(), this.intervalMs);
    // a process with nothing else to do is not kept alive by the watch
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = null;
    if (this.isPolling || this.isClosed) return;
    const ids = this.watchers.runIds();
    if (ids.length) {
      this.isPolling = true;
      try {
        for (const req of await this.read(ids)) this.watchers.notify(req);
      } catch {
        // the store away for a moment: the next poll asks again (the run's own commits report the outage)
      } finally {
        this.isPolling = false;
      }
    }
    this.schedule();
  }
}
