/**
 * What the host keeps of a code step's stdout and stderr during one call, and
 * how fast it reads them.
 *
 * A call may print as much as it likes until its timeout: progress lines, a
 * data frame printed by mistake — or 2 GB a second from a loop of writes. The
 * host keeps only what an error message can use: the first OUTPUT_HEAD_BYTES
 * and the last OUTPUT_TAIL_BYTES of each stream, with how much was left out
 * between them. Chunks arrive as bytes and are kept by reference (a slice of
 * the chunk the read gave, never a copy or a decode), so a chunk costs a few
 * comparisons; text is made once, when an outcome asks for it.
 *
 * Reading is the rest of the cost (the kernel's copy, the stream's machinery:
 * about half a core at full speed). So past OUTPUT_FULL_SPEED_BYTES in one call
 * the host reads at most OUTPUT_DRAIN_BYTES_PER_S: it stops reading for the
 * rest of each 100 ms slice once the slice's share has arrived, the pipe
 * fills, and the step's next write waits. A chatty step is slowed there,
 * never failed for it (its own timeout still applies).
 *
 * Owns: the head, the tail, the count (and the text made of them: a NUL, which
 * no record may hold, shown as `\x00`), and the throttle's arithmetic. Does not:
 * own the streams (worker.ts pauses and resumes them) or count output between
 * calls (worker.ts kills a worker that writes too much then).
 */
import { withoutNul } from '../kernel/row-readable';

/** The first bytes of a call's stdout (and of its stderr) kept for its error message. */
export const OUTPUT_HEAD_BYTES = 4096;
/** The last bytes of a call's stdout (and of its stderr) kept for its error message. */
export const OUTPUT_TAIL_BYTES = 4096;
/** A call's stdout and stderr together are read at full speed up to this many bytes. */
export const OUTPUT_FULL_SPEED_BYTES = 32 * 1024 * 1024;
/** Past OUTPUT_FULL_SPEED_BYTES, the most a call's output is read at. */
export const OUTPUT_DRAIN_BYTES_PER_S = 32 * 1024 * 1024;
/** the throttle's slice: within each, at most its share of OUTPUT_DRAIN_BYTES_PER_S is read */
export const OUTPUT_SLICE_MS = 100;

/** One stream of one call: its head, its tail and how many bytes it had. */
export class StreamKeep {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** bytes of this stream since the call began */
  total = 0;

  reset(): void {
    if (this.total === 0) return; // the usual call prints nothing: nothing to drop, nothing made
    this.head = [];
    this.headBytes = 0;
    this.tail = [];
    this.tailBytes = 0;
    this.total = 0;
  }

  add(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headBytes < OUTPUT_HEAD_BYTES) {
      const take = Math.min(OUTPUT_HEAD_BYTES - this.headBytes, chunk.length);
      this.head.push(chunk.subarray(0, take));
      this.headBytes += take;
      if (take === chunk.length) return;
      chunk = chunk.subarray(take);
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    // chunks no longer needed for the tail go (a read gives up to 64 KiB: this list stays short)
    while (this.tailBytes - this.tail[0].length >= OUTPUT_TAIL_BYTES) this.tailBytes -= this.tail.shift()!.length;
  }

  /**
   * The head, then (when bytes were left out) a line saying how many, then the tail; as text. The cuts are
   * at bytes, so a character the head's end or the tail's start cut in two is left out whole (and counted),
   * never decoded as a replacement character; head and tail that meet are decoded as one.
   */
  text(): string {
    if (this.total === 0) return '';
    const headAll = Buffer.concat(this.head);
    const tailAll = Buffer.concat(this.tail);
    let tail = tailAll.subarray(Math.max(0, tailAll.length - OUTPUT_TAIL_BYTES));
    if (this.total === headAll.length + tail.length) return withoutNul(Buffer.concat([headAll, tail]).toString('utf8'));
    const head = headAll.subarray(0, wholeCharsEnd(headAll));
    tail = tail.subarray(wholeCharsStart(tail));
    const left = this.total - head.length - tail.length;
    return withoutNul(`${head.toString('utf8')}\n[… ${left} bytes of output left out …]\n${tail.toString('utf8')}`);
  }
}

/** Where `bytes` ends without a UTF-8 character cut at its end: before the last character's lead byte when its continuation bytes are not all there. */
export function wholeCharsEnd(bytes: Buffer): number {
  // a character is at most 4 bytes: its lead byte is among the last 4
  for (let at = bytes.length - 1; at >= Math.max(0, bytes.length - 4); at--) {
    const b = bytes[at];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: the lead is further back
    const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return at + size > bytes.length ? at : bytes.length;
  }
  return bytes.length; // no lead byte in the last 4: not UTF-8 there, nothing to mend
}

/** Where `bytes` starts without a UTF-8 character cut at its start: past the (at most 3) continuation bytes of a character begun before it. */
export function wholeCharsStart(bytes: Buffer): number {
  let at = 0;
  while (at < 3 && at < bytes.length && (bytes[at] & 0xc0) === 0x80) at++;
  return at < bytes.length && (bytes[at] & 0xc0) === 0x80 ? 0 : at; // 4 or more: not UTF-8, nothing to mend
}

/**
 * The throttle of one call's output: `onBytes` says how many arrived and gives the milliseconds to stop
 * reading for (0: read on). Below OUTPUT_FULL_SPEED_BYTES it only counts.
 */
export class OutputThrottle {
  private bytes = 0;
  private sliceStart = 0;
  private sliceBytes = 0;

  reset(): void {
    this.bytes = 0;
    this.sliceBytes = 0;
    this.sliceStart = 0;
  }

  onBytes(n: number, now: number): number {
    this.bytes += n;
    if (this.bytes <= OUTPUT_FULL_SPEED_BYTES) return 0;
    if (now - this.sliceStart >= OUTPUT_SLICE_MS) {
      this.sliceStart = now;
      this.sliceBytes = 0;
    }
    this.sliceBytes += n;
    if (this.sliceBytes < (OUTPUT_DRAIN_BYTES_PER_S * OUTPUT_SLICE_MS) / 1000) return 0;
    return Math.max(1, this.sliceStart + OUTPUT_SLICE_MS - now);
  }
}
