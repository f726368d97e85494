/**
 * stdout's reader gone (`stagecraft events RUN --follow | head -3`, a pager quit): a command that only
 * reads and prints — following a run — stops at once, quietly, and exits 0, where it went on
 * following for nobody until the run ended. A command doing work of its own (`run`, `resume`,
 * `replay`, `fork`, `worker`) finishes it, its output dropped (main.ts): its runs are recorded whoever reads.
 *
 * Exit 0, not the 141 of a command killed by SIGPIPE: node ignores SIGPIPE, and the node CLIs that
 * handle a closed pipe exit 0 there; a CI shell runs with `-o pipefail` (GitHub Actions' bash does),
 * where 141 would fail a step whose reader chose to take less. The pipeline's status stays the reader's.
 *
 * Known when a write fails (EPIPE), as for a SIGPIPE'd command: node cannot poll a pipe's write end for
 * its reader's close (coreutils' `tail -f` does), so a follower that printed everything before the reader
 * left stops at its next line.
 */

const gone = new AbortController();

/** aborted once a write to stdout found its reader gone */
export const readerGone: AbortSignal = gone.signal;

export function markReaderGone(): void {
  gone.abort();
}

/** `stop` called once stdout's reader is gone (at once when it already is); the returned function takes that back */
export function onReaderGone(stop: () => void): () => void {
  if (readerGone.aborted) {
    stop();
    return () => {};
  }
  readerGone.addEventListener('abort', stop, { once: true });
  return () => readerGone.removeEventListener('abort', stop);
}
