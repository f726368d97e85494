/**
 * The built app (`next build` must have run) started as users start it, for
 * the HTTP tests: `next start` on a free port of the given host, with a fresh
 * embedded database unless the env names one; stopped (its process group
 * killed, its data removed) by `stop`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type AppServer = { url: string; port: number; pid: number; dataDir: string; output(): string; stop(): Promise<void> };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** `dataDir`: the embedded database's folder, kept when the app stops (to start it again on the same data); default a new one, removed */
/** `port`: the one to listen on (default: a free one) */
/** `isStoreless`: ready once it answers at all (a test of an app whose store cannot be opened); default: once it lists the examples */
export async function startApp(opts: { env?: Record<string, string>; host?: string; dataDir?: string; port?: number; isStoreless?: boolean } = {}): Promise<AppServer> {
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'sc-http-'));
  const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: '1', ...opts.env };
  for (const k of ['DATABASE_URL', 'STAGECRAFT_TOKEN', 'STAGECRAFT_MODEL_BASE_URL', 'STAGECRAFT_MODEL']) if (!opts.env?.[k]) delete env[k];
  const host = opts.host ?? '127.0.0.1';
  const child: ChildProcess = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', host], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      await new Promise((r) => child.once('exit', r));
    }
    if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}) before answering:\n${out}`);
    try {
      // the examples are loaded on start: the app is ready when it lists them
      const r = await fetch(`${url}/api/skills`, { headers: opts.env?.STAGECRAFT_TOKEN ? { authorization: `Bearer ${opts.env.STAGECRAFT_TOKEN}` } : {} });
      if (opts.isStoreless || (r.ok && ((await r.json()) as { skills: unknown[] }).skills.length > 0)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the app did not answer within 90 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, port, pid: child.pid!, dataDir, output: () => out, stop };
}

/** what a start that should fail said (the app's output, as startApp's error gives it); null when the app started (it is stopped) */
export async function failedStart(opts: Parameters<typeof startApp>[0] = {}): Promise<string | null> {
  return startApp(opts).then(
    async (app) => {
      await app.stop();
      return null;
    },
    (e: Error) => e.message,
  );
}
