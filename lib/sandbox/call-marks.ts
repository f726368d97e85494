/**
 * Which bytes of a warm worker's stdout and stderr are one call's own.
 *
 * A worker serves many calls over the same two pipes, and the host reads
 * them when it gets to them (a throttled call's output later still): bytes
 * still unread when a call ends would be taken for the next call's, and what
 * a process a step left running writes between calls for the next step's. So
 * each call has a mark, fresh random bytes the host sends with the request
 * only; the worker writes `\0sc:<mark>:b\0` to each stream before the call
 * runs (after flushing what was printed before) and `\0sc:<mark>:e\0` after it
 * (after flushing what it printed), both before its reply, through its own
 * descriptors of the two pipes (code that closes or redirects fd 1 and 2 does
 * not stop them). What the host reads between a call's two marks is the
 * call's; what comes before its begin mark or after its end mark is nobody's:
 * counted against the worker's idle allowance (worker.ts) and dropped. The
 * host finishes a call once its reply and both end marks are read (or, a
 * mark missing, a moment after the reply).
 *
 * A mark cannot be forged to pass bytes off as another call's: a call's mark
 * is sent when the call starts, so neither a process an earlier step left
 * running nor that step's code can know it beforehand. The limit is the pipe:
 * bytes such a process writes WHILE a later call runs (between that call's
 * marks) are in that call's output — the pipe does not say who wrote them —
 * as are bytes a thread left running in the worker's own process writes then.
 *
 * Owns: the marks, the split of a stream at them, and the wait for a call's
 * end marks after its reply. Does not: read the streams, keep or throttle the
 * bytes (worker.ts, call-output.ts).
 */
import { randomBytes } from 'node:crypto';

/** random bytes in a call's mark */
const MARK_BYTES = 12;
/** marks drawn from the system at once (one draw per this many calls) */
const MARKS_PER_DRAW = 256;
let drawn = Buffer.alloc(0);
let drawnAt = 0;

/** A fresh call mark (hex), never sent before. */
export function newCallMark(): string {
  if (drawnAt >= drawn.length) {
    drawn = randomBytes(MARK_BYTES * MARKS_PER_DRAW);
    drawnAt = 0;
  }
  drawnAt += MARK_BYTES;
  return drawn.toString('hex', drawnAt - MARK_BYTES, drawnAt);
}

/** What the worker writes to each stream as the call with `mark` begins (`b`) and ends (`e`): see the workers. */
export function markBytes(mark: string, edge: 'b' | 'e'): Buffer {
  return Buffer.from(`\0sc:${mark}:${edge}\0`, 'latin1');
}

/**
 * One output stream, split at the marks of the call in flight: the call's bytes to `onCall`, the count of
 * the others to `onOther`. Until `expect` is first called (the worker's start, or a worker that writes no
 * marks) every byte is the call's, as it was without marks.
 */
export class MarkedStream {
  /** the mark awaited next: the call's begin mark, then its end mark; null: none */
  private awaited: Buffer | null = null;
  private endMark: Buffer | null = null;
  private isInCall = true;
  /** the stream's last bytes, when they may be the start of the awaited mark: held until the next chunk tells */
  private held: Buffer | null = null;
  /** the call's end mark has been read */
  isEnded = false;

  constructor(
    private readonly onCall: (bytes: Buffer) => void,
    private readonly onOther: (count: number) => void,
    private readonly onEnd: () => void,
  ) {}

  /** A call with `mark` begins: what comes before its begin mark is not its own. */
  expect(mark: string): void {
    this.release();
    this.awaited = markBytes(mark, 'b');
    this.endMark = markBytes(mark, 'e');
    this.isInCall = false;
    this.isEnded = false;
  }

  /** No call in flight (or its end mark is given up on): what comes now is nobody's. */
  idle(): void {
    this.release();
    this.awaited = null;
    this.isInCall = false;
  }

  push(chunk: Buffer): void {
    let data = this.held ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = null;
    while (this.awaited) {
      const at = data.indexOf(this.awaited);
      if (at < 0) {
        const keep = markStartAtEnd(data, this.awaited);
        if (keep < data.length) this.held = Buffer.from(data.subarray(keep)); // a copy: the chunk is not kept for a few bytes
        this.deliver(data.subarray(0, keep));
        return;
      }
      this.deliver(data.subarray(0, at));
      data = data.subarray(at + this.awaited.length);
      if (this.isInCall) {
        this.isInCall = false;
        this.awaited = null;
        this.isEnded = true;
        this.onEnd();
      } else {
        this.isInCall = true;
        this.awaited = this.endMark;
      }
    }
    this.deliver(data);
  }

  /** The held bytes, as what they were taken for: no mark came to finish them. */
  private release(): void {
    const held = this.held;
    this.held = null;
    if (held) this.deliver(held);
  }

  private deliver(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (this.isInCall) this.onCall(bytes);
    else this.onOther(bytes.length);
  }
}

/** After a reply, how long its call's end marks (written before it) may take to be read before the call ends without them. */
const END_MARK_WAIT_MS = 1_000;

/**
 * A worker's two output streams split at its calls' marks, once the worker has said it writes them
 * (`start`); until then (or for a worker that never says so) every byte is the call's, as without marks.
 */
export class CallMarks {
  private readonly streams: MarkedStream[] = [];
  /** the worker writes marks */
  isOn = false;
  /** a reply is in, its call's end marks not yet: finishes the call */
  private afterReply: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;

  /** A stream to split: the call's bytes to `onCall`, the count of the others to `onOther`. */
  stream(onCall: (bytes: Buffer) => void, onOther: (count: number) => void): MarkedStream {
    const marked = new MarkedStream(onCall, onOther, () => this.onEndMark());
    if (this.isOn) marked.idle();
    this.streams.push(marked);
    return marked;
  }

  /** The worker said it writes marks: what comes now, before a call, is no call's. */
  start(): void {
    this.isOn = true;
    for (const m of this.streams) m.idle();
  }

  /** A call begins: its mark, for the request (null: the worker writes none). */
  begin(): string | null {
    if (!this.isOn) return null;
    const mark = newCallMark();
    for (const m of this.streams) m.expect(mark);
    return mark;
  }

  /** The call ended (with its marks or without: a timeout, an exit): what comes now is no call's. */
  end(): void {
    if (this.isOn) for (const m of this.streams) m.idle();
  }

  /** The reply is in, and what is left up to the end marks is being read (at full speed: no throttle). */
  get isDraining(): boolean {
    return this.afterReply !== null;
  }

  /** Runs `finish` once the call's end marks are read on every stream, or END_MARK_WAIT_MS from now. */
  whenEnded(finish: () => void): void {
    if (this.streams.every((m) => m.isEnded)) return finish();
    this.afterReply = finish;
    // one timer, re-armed (a third of a node worker's calls wait here: a timer made and cleared per call costs)
    if (this.timer) this.timer.refresh().ref();
    else this.timer = setTimeout(() => this.finishAfterReply(), END_MARK_WAIT_MS);
  }

  private onEndMark(): void {
    if (this.afterReply && this.streams.every((m) => m.isEnded)) this.finishAfterReply();
  }

  private finishAfterReply(): void {
    const finish = this.afterReply;
    this.afterReply = null;
    this.timer?.unref(); // armed still, unref'd: when it fires with no reply waiting, it does nothing
    finish?.();
  }
}

/** Where the bytes at the end of `data` that may begin `mark` (a part of it, cut by the read) start; data.length: none. */
function markStartAtEnd(data: Buffer, mark: Buffer): number {
  // a mark begins with NUL: only from a NUL among the last mark.length - 1 bytes
  for (let at = data.indexOf(0, Math.max(0, data.length - mark.length + 1)); at >= 0; at = data.indexOf(0, at + 1)) {
    if (mark.subarray(0, data.length - at).equals(data.subarray(at))) return at;
  }
  return data.length;
}
