/**
 * Runs for the HTTP tests that a browser cannot make: an interrupted run (a
 * child process driving it is SIGKILLed at a fault point, as a crash leaves
 * it: `running`, with a snapshot) and the same child resuming it — the crash
 * tests' worker, on the app's database. And an SSE reader over fetch.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const WORKER = path.resolve(here, '../../crash/worker.ts');
const FIXTURE = path.resolve(here, '../../crash/fixture');

type Child = { code: number | null; signal: NodeJS.Signals | null; out: string; err: string };

function worker(args: string[], env: Record<string, string>): Promise<Child> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('exit', (code, signal) => resolve({ code, signal, out, err }));
  });
}

/**
 * A run of the crash probe (a bundle folder) left `running` after its driver died: with
 * `after-commit:6` its model phase and postprocessor steps 0–4 are recorded (14 events).
 */
export async function interruptedRun(opts: { databaseUrl: string; dataDir: string; fault?: string }): Promise<{ runId: string; bundle: string }> {
  const bundle = mkdtempSync(path.join(tmpdir(), 'sc-http-probe-'));
  cpSync(FIXTURE, bundle, { recursive: true });
  const runId = `run_interrupted_${randomUUID().slice(0, 8)}`;
  const r = await worker(['start', runId, bundle], { DATABASE_URL: opts.databaseUrl, STAGECRAFT_DATA_DIR: opts.dataDir, STAGECRAFT_FAULT: opts.fault ?? 'after-commit:6' });
  if (r.signal !== 'SIGKILL') throw new Error(`the probe was to die at its fault point; it ended ${r.code ?? r.signal}:\n${r.err}`);
  return { runId, bundle };
}

/** Resumes a run in a process of its own (as `stagecraft resume` would), on the same database. */
export async function resumeElsewhere(runId: string, opts: { databaseUrl: string; dataDir: string }): Promise<Child> {
  return worker(['resume', runId], { DATABASE_URL: opts.databaseUrl, STAGECRAFT_DATA_DIR: opts.dataDir });
}

export type SseEvent = { event: string; id: string | null; data: unknown };

/**
 * Reads a server-sent event stream until it closes or `until` says to stop; each event as it is
 * framed (`event:` default `message`, `id:`, `data:` as JSON), with when it arrived.
 */
export async function readSse(
  url: string,
  opts: { headers?: Record<string, string>; until?: (e: SseEvent, all: SseEvent[]) => boolean; timeoutMs?: number } = {},
): Promise<{ status: number; headers: Headers; events: (SseEvent & { at: number })[]; body?: unknown }> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.timeoutMs ?? 60_000);
  const res = await fetch(url, { headers: opts.headers, signal: abort.signal });
  const events: (SseEvent & { at: number })[] = [];
  if (!res.ok || !res.body) {
    clearTimeout(timer);
    return { status: res.status, headers: res.headers, events, body: await res.json().catch(() => null) };
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let event = 'message';
        let id: string | null = null;
        const data: string[] = [];
        for (const line of frame.split('\n')) {
          if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('id: ')) id = line.slice(4);
          else if (line.startsWith('data: ')) data.push(line.slice(6));
        }
        if (!data.length) continue; // a comment (keep-alive) or the retry line
        const e = { event, id, data: JSON.parse(data.join('\n')) as unknown, at: Date.now() };
        events.push(e);
        if (opts.until?.(e, events)) {
          abort.abort();
          return { status: res.status, headers: res.headers, events };
        }
      }
    }
  } catch (e) {
    if (!abort.signal.aborted) throw e;
  } finally {
    clearTimeout(timer);
  }
  return { status: res.status, headers: res.headers, events };
}
