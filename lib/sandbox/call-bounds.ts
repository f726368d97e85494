/**
 * Which bytes of a warm worker's stdout and stderr are one call's own.
 *
 * A worker serves many calls over the same two pipes (or sockets), and the
 * host reads them when it gets to them (a throttled call's output later
 * still). A call's output is what the host reads from the moment it sends the
 * request until it handles the reply, and what the call left unread then:
 *
 * - The worker writes (and flushes) the call's output before its reply. The
 *   host's loop polls level-triggered: the poll (one epoll_wait) that reports
 *   the reply also reports every pipe still holding bytes written before it,
 *   and libuv runs all of that poll's reads (up to 2 MiB a pipe: more than a
 *   pipe or socket buffer holds) before the loop's check phase; so a call is
 *   finished in a setImmediate after its reply, all of its output read.
 * - A throttled call's pipes are not polled (paused): what they hold when its
 *   reply comes is read at once (`drainUnread`), and is the call's — never the
 *   next call's, however soon that one is sent.
 *
 * No marks, no writes of the worker's, no wait: a call costs what it did
 * before (f6155f8 had the worker write a begin and an end mark to both streams
 * each call: +0.03 ms host CPU, +0.015 ms worker CPU per call).
 *
 * What a thread or process an earlier step left running writes between calls
 * is nobody's when the host reads it before the next call is sent (counted
 * against the worker's idle allowance, worker.ts, and dropped); still unread
 * then (the host's loop busy), it is in that call's output, as is what such a
 * writer writes while a call runs — the pipe does not say who wrote it. (A
 * read of the pipes before each request would tell the first apart, at two
 * failed non-blocking reads a call: +0.015 ms host CPU, half of the marks'.)
 *
 * Owns: the read of what a throttled call left unread. Does not: read the
 * streams otherwise, keep or throttle the bytes (worker.ts, call-output.ts).
 */
import { readSync } from 'node:fs';
import type { Readable } from 'node:stream';

/** a read's size when draining: libuv's too */
const READ_BYTES = 64 * 1024;
const scratch = Buffer.allocUnsafe(READ_BYTES);

/** The descriptor the host reads `stream` from (a pipe or a socket), or -1 when it has none. */
export function streamFd(stream: Readable): number {
  const fd = (stream as unknown as { _handle?: { fd?: number } })._handle?.fd;
  return typeof fd === 'number' ? fd : -1;
}

/**
 * Reads what is unread of `stream` now, in order, each piece to `onData` (the stream's 'data' listener):
 * what its Readable holds (a paused stream: emitted as 'data' by its read()), then what its descriptor `fd`
 * holds (non-blocking: libuv's), until it is empty or `maxBytes` have been read from it (a writer that
 * does not stop); a copy each, as a 'data' chunk is kept by reference.
 */
export function drainUnread(stream: Readable, fd: number, onData: (bytes: Buffer) => void, maxBytes: number): void {
  while (stream.readableLength > 0 && stream.read() !== null);
  if (fd < 0) return;
  for (let read = 0; read < maxBytes; ) {
    const n = readOnce(fd);
    if (n <= 0) return;
    read += n;
    onData(Buffer.from(scratch.subarray(0, n)));
  }
}

/** One non-blocking read into `scratch`: its byte count, 0 at the end, -1 when nothing is there (or the descriptor is gone). */
function readOnce(fd: number): number {
  try {
    return readSync(fd, scratch, 0, READ_BYTES, null);
  } catch {
    return -1; // EAGAIN: empty (an Error, and its stack, per call: the reason this is not done before every call)
  }
}
