// The analysis worker's reply, also left in memory shared with the page (a SharedArrayBuffer), so
// the page can take it in an animation frame's callback, before that frame's style and layout: the
// diagram change is drawn in the frame of the keystroke's own letter. The same reply by message
// comes too late for it: Chromium holds a worker's message back while input is handled until that
// frame is out (DeferRendererTasksAfterInput), and applying it then takes the next frame.
//
// The buffer: word 0 the sequence number (the request's id) of the reply written, word 1 its length
// in bytes, then the reply as UTF-8 JSON. The worker writes the bytes and the length first and the
// sequence number last (Atomics.store): a reader that sees its id sees the whole reply. One request
// is in flight at a time (AnalysisChannel), so a reply is never overwritten before it is read.
// A reply that does not fit is not written (the message carries it, as without a shared buffer).
//
// Shared memory needs a cross-origin isolated page (COOP same-origin + COEP, proxy.ts): elsewhere
// `sharedReplyBuffer` gives null and replies come by message only, as before.

const SEQ = 0;
const LENGTH = 1;
const HEADER_BYTES = 8;
/** room for a keystroke's reply with plenty to spare (the 100-phase skill's whole first diagram is ~0.2 MB) */
export const SHARED_REPLY_BYTES = 1 << 20;

/** what the worker posts when the reply is in the shared buffer: only which one it is */
export type SharedReplyNotice = { kind: 'shared'; id: number };

/** A shared buffer for the replies, or null where the page may not share memory (not cross-origin isolated). */
export function sharedReplyBuffer(bytes = SHARED_REPLY_BYTES, scope: { crossOriginIsolated?: boolean } = globalThis): SharedArrayBuffer | null {
  if (typeof SharedArrayBuffer !== 'function' || scope.crossOriginIsolated !== true) return null;
  try {
    return new SharedArrayBuffer(HEADER_BYTES + bytes);
  } catch {
    return null;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The worker's side: writes `reply` as the reply `seq`; false (and nothing written) when it does not fit. */
export function writeSharedReply(buffer: SharedArrayBuffer, seq: number, reply: unknown): boolean {
  const words = new Int32Array(buffer, 0, 2);
  const room = new Uint8Array(buffer, HEADER_BYTES);
  const json = JSON.stringify(reply);
  // UTF-8 takes at least a byte per UTF-16 unit: what cannot fit is not encoded at all
  if (json.length > room.length) return false;
  // encoded apart, then copied in: Chromium's TextEncoder.encodeInto writes into no shared memory
  const bytes = encoder.encode(json);
  if (bytes.length > room.length) return false;
  room.set(bytes);
  Atomics.store(words, LENGTH, bytes.length);
  Atomics.store(words, SEQ, seq);
  return true;
}

/** The worker's side: what to post for `reply` — the notice when it is in the shared buffer, else (not there, too large, or the writing failed) the reply itself. */
export function replyMessage<R extends { id: number }>(shared: SharedArrayBuffer | null, reply: R): R | SharedReplyNotice {
  try {
    return shared && writeSharedReply(shared, reply.id, reply) ? { kind: 'shared', id: reply.id } : reply;
  } catch {
    return reply; // the shared buffer is only a shortcut: a reply it cannot take goes by message
  }
}

/** The page's side: the reply `seq` when it is in the buffer (complete), else null. */
export function readSharedReply<T>(buffer: SharedArrayBuffer, seq: number): T | null {
  const words = new Int32Array(buffer, 0, 2);
  if (Atomics.load(words, SEQ) !== seq) return null;
  const length = Atomics.load(words, LENGTH);
  // TextDecoder reads no shared memory: the bytes are copied out first (slice copies into a buffer of its own)
  return JSON.parse(decoder.decode(new Uint8Array(buffer, HEADER_BYTES, length).slice())) as T;
}
