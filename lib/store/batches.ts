/**
 * How many queued write operations go in one `stagecraft_apply` statement, on the commit lanes
 * (Postgres, commit-lanes.ts) and on the embedded line (embedded-line.ts) alike. A module of its
 * own so the embedded store does not load pg for it.
 */
import type { OpSource } from './wire';

/** operations per statement at most */
export const MAX_BATCH = 64;
/**
 * characters of operations per statement at most (one operation alone may pass it): runs that
 * each commit a large output at the same moment must not add up to a parameter past what a string
 * or a jsonb can hold, which would fail every run of the batch for the size of the others'
 */
export const MAX_BATCH_CHARS = 32 * 1024 * 1024;

/**
 * How many queued operations the next statement takes: at most MAX_BATCH, and MAX_BATCH_CHARS unless
 * the first alone is more. An operation's size is its text's, or `chars` when it is sent another way
 * (a direct write, wire.ts, whose op text is not built).
 */
export function batchLength(queue: readonly { op: OpSource; chars?: number }[]): number {
  let chars = 0;
  let n = 0;
  while (n < queue.length && n < MAX_BATCH) {
    const q = queue[n];
    chars += (q.chars ?? (typeof q.op === 'string' ? q.op.length : 0)) + 1;
    if (n > 0 && chars > MAX_BATCH_CHARS) break;
    n++;
  }
  return n;
}
