/**
 * `--stamps` of bench:store (single and floor modes): where an effectful step's main-thread time on its
 * critical path goes, stamped at the ports. Each read and write of this process's sockets is stamped
 * (performance.now) by kind: the database's TCP connection (a statement sent, an answer read) or a
 * worker's pipes (a request sent, a reply read). A step then reads as
 *
 *   request → reply (the worker's round trip) → send (the commit's statement on the wire)
 *           → answer (the database's round trip) → request (the next step's call on the wire)
 *
 * and the two gaps on this process's main thread are `replyToSendUs` (the reply handled, the call
 * finished, the step recorded, its statement built and written) and `answerToRequestUs` (the answer
 * handled, the next call started). The floor (one raw INSERT + one worker call) has the same two
 * gaps, so ours minus the floor's is what the kernel and the store add. Medians, in µs, over the
 * steps of the measured window. A preload rather than probes in lib: nothing in the code measured
 * changes, and the floor and ours are stamped alike.
 *
 * Where the gaps come from: stamps are taken in JavaScript (a write as it is asked for, a read as its
 * chunk is pushed to its stream), so each gap is main-thread time and event-loop turns, never a wait
 * for the other side.
 */
import net from 'node:net';

/** a stamp's kind */
export const DB_SEND = 1;
export const DB_ANSWER = 2;
export const WORKER_REQUEST = 3;
export const WORKER_REPLY = 4;

export type PortGaps = {
  /** per step: the worker's reply read → the commit's statement written */
  replyToSendUs: number | null;
  /** the database's answer read → the next request written to a worker */
  answerToRequestUs: number | null;
  /** a request written → its reply read (the worker's round trip as this process sees it) */
  callUs: number | null;
  /** a statement written → its answer read */
  dbUs: number | null;
  /** steps the gaps were measured over */
  steps: number;
};

const median = (a: number[]): number | null => {
  if (!a.length) return null;
  const b = [...a].sort((x, y) => x - y);
  return +(b[b.length >> 1] * 1000).toFixed(1);
};

/**
 * The gaps of a sequence of stamps ([ms, kind] pairs, flat): a step is a request, its reply, the
 * statement sent after it and that statement's answer. A read not answering a write (a second chunk,
 * output between calls) is ignored; only the first statement after a reply counts.
 */
export function portGaps(stamps: readonly number[]): PortGaps {
  const replyToSend: number[] = [];
  const answerToRequest: number[] = [];
  const call: number[] = [];
  const db: number[] = [];
  let request: number | null = null;
  let reply: number | null = null;
  let send: number | null = null;
  let answer: number | null = null;
  for (let i = 0; i + 1 < stamps.length; i += 2) {
    const t = stamps[i];
    switch (stamps[i + 1]) {
      case WORKER_REQUEST:
        if (answer !== null) answerToRequest.push(t - answer);
        request = t;
        reply = answer = null;
        break;
      case WORKER_REPLY:
        if (request === null) break;
        call.push(t - request);
        reply = t;
        request = null;
        break;
      case DB_SEND:
        if (reply !== null && send === null) replyToSend.push(t - reply);
        reply = null;
        send = t;
        break;
      case DB_ANSWER:
        if (send === null) break;
        db.push(t - send);
        answer = t;
        send = null;
        break;
    }
  }
  return { replyToSendUs: median(replyToSend), answerToRequestUs: median(answerToRequest), callUs: median(call), dbUs: median(db), steps: call.length };
}

/**
 * Stamps every socket of this process from now on (`dbPort`: the database's TCP port; any socket
 * without a remote port is a worker's pipe); `take` stops and gives what was stamped since `mark`.
 */
export function stampPorts(dbPort: number): { mark(): void; take(): PortGaps } {
  const stamps: number[] = [];
  let from = 0;
  let isOn = true;
  const proto = net.Socket.prototype as net.Socket & { push(chunk: unknown): boolean };
  const { write, uncork, push } = proto;
  const isDb = (s: net.Socket) => s.remotePort === dbPort;
  const isWorker = (s: net.Socket) => s.remotePort === undefined;
  proto.write = function (this: net.Socket, ...args: unknown[]) {
    // pg corks a statement's messages and writes them at uncork
    if (isOn && (isWorker(this) || (isDb(this) && !this.writableCorked))) stamps.push(performance.now(), isDb(this) ? DB_SEND : WORKER_REQUEST);
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof proto.write;
  proto.uncork = function (this: net.Socket) {
    if (isOn && isDb(this) && this.writableCorked === 1) stamps.push(performance.now(), DB_SEND);
    return uncork.call(this);
  };
  proto.push = function (this: net.Socket, chunk: unknown) {
    if (isOn && chunk !== null && (isDb(this) || isWorker(this))) stamps.push(performance.now(), isDb(this) ? DB_ANSWER : WORKER_REPLY);
    return push.call(this, chunk);
  };
  return {
    mark() {
      from = stamps.length;
    },
    take() {
      isOn = false;
      Object.assign(proto, { write, uncork, push });
      return portGaps(stamps.slice(from));
    },
  };
}
