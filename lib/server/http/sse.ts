/**
 * Server-sent events out of an async iterable: each message framed as
 * `id:`/`event:`/`data:` lines, its data checked against its event's schema
 * (as a JSON answer is checked against its view), a comment line every few
 * seconds so proxies and the browser keep an idle stream open, and the
 * iterable closed (its `return()`) when the client goes away.
 *
 * Owns: the framing and the stream's life. Does not: decide what is sent
 * (the operation's iterable does).
 */
import type { z } from 'zod';
import { serverLog } from '../log';

/** what keeps an idle stream from being dropped by a proxy's idle timeout */
export const SSE_HEARTBEAT_MS = 15_000;
/** how long a browser waits before it reconnects (with Last-Event-ID) */
export const SSE_RETRY_MS = 1_000;

export type SseMessage = { event: string; data: unknown; id?: string };

/** one message as it goes on the wire; the event `message` is the default and goes without its name */
export function frame(m: SseMessage): string {
  const lines: string[] = [];
  if (m.id !== undefined) lines.push(`id: ${m.id.replace(/[\r\n]/g, '')}`);
  if (m.event !== 'message') lines.push(`event: ${m.event}`);
  // JSON.stringify escapes newlines inside strings: the data is one line
  lines.push(`data: ${JSON.stringify(m.data)}`);
  return `${lines.join('\n')}\n\n`;
}

export function sseResponse(
  messages: AsyncIterable<SseMessage>,
  opts: { events: Record<string, z.ZodType>; signal?: AbortSignal; onClose?: () => void; heartbeatMs?: number; retryMs?: number },
): Response {
  const encoder = new TextEncoder();
  const iterator = messages[Symbol.asyncIterator]();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const stop = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    // the producer hears of it at once, not at its next message (it may be waiting for one)
    opts.onClose?.();
    void iterator.return?.().catch(() => undefined);
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`retry: ${opts.retryMs ?? SSE_RETRY_MS}\n\n`));
      heartbeat = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(': keep-alive\n\n'));
      }, opts.heartbeatMs ?? SSE_HEARTBEAT_MS);
      opts.signal?.addEventListener('abort', stop, { once: true });
    },
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (closed) return;
        if (next.done) {
          stop();
          controller.close();
          return;
        }
        const m = next.value;
        const schema = opts.events[m.event];
        // a message its route does not declare, or data that does not match, is our bug
        if (!schema) throw new Error(`the stream sent an event "${m.event}" its route does not declare`);
        const checked = schema.safeParse(m.data);
        if (!checked.success) throw new Error(`the stream's "${m.event}" does not match its view: ${checked.error.message}`);
        controller.enqueue(encoder.encode(frame({ ...m, data: checked.data })));
      } catch (e) {
        serverLog.error('stagecraft: an event stream stopped:', e);
        stop();
        controller.error(e);
      }
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      // no-transform: next start's compression (and any proxy's) would otherwise hold events back
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  });
}
