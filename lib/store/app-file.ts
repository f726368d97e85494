/**
 * `<dataDir>/app.json`, beside the lock: where the app that holds the embedded store listens
 * (`{url, pid, startedAt}`), so that a CLI command finding the store locked by it can ask the app
 * instead (cli/through-app.ts). The app writes it once its store is open (lib/server/app/app-host.ts)
 * and removes it as it exits; one left by a process that died is told apart by its pid, which must
 * be the lock holder's and alive.
 *
 * Owns: the file's name, shape, writing (complete: a temp file renamed into place) and reading.
 * Does not: lock anything (data-dir-lock.ts), or talk to the app.
 */
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const APP_FILE = 'app.json';

export type AppRecord = { url: string; pid: number; startedAt: number };

/**
 * Where this server answers, from what `next start` set as it began to listen (its origin, or
 * PORT on the host STAGECRAFT_HOST names); null when it is no server (a script, a test).
 */
export function listeningUrl(env: Record<string, string | undefined>): string | null {
  // set by Next's start-server once it listens: `http://127.0.0.1:3000`, `http://localhost:3000` for 0.0.0.0
  const origin = env.__NEXT_PRIVATE_ORIGIN;
  if (origin && /^https?:\/\//.test(origin)) return origin;
  if (!env.PORT) return null;
  const host = env.STAGECRAFT_HOST || '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT}`;
}

const RECORDED = Symbol.for('stagecraft.appFile');
type Holder = { [RECORDED]?: string };

/** Writes this process's app.json in `dataDir` (once per process), removed again on exit. */
export function recordApp(dataDir: string, url: string): void {
  const g = globalThis as Holder;
  if (g[RECORDED] === dataDir) return;
  g[RECORDED] = dataDir;
  const file = path.join(dataDir, APP_FILE);
  const me: AppRecord = { url, pid: process.pid, startedAt: Date.now() };
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(me, null, 2)}\n`);
    renameSync(tmp, file);
  } catch (e) {
    // the CLI then says the store is locked, as it did before this file
    console.warn(`stagecraft: could not write ${file} (${(e as Error).message}); CLI commands cannot find the app through it`);
    return;
  }
  process.on('exit', () => {
    if (readApp(dataDir)?.pid === process.pid) {
      try {
        unlinkSync(file);
      } catch {
        /* already gone */
      }
    }
  });
}

/** The app.json in `dataDir`, when there is one that reads as one; null else. */
export function readApp(dataDir: string): AppRecord | null {
  try {
    const o = JSON.parse(readFileSync(path.join(dataDir, APP_FILE), 'utf8')) as Partial<AppRecord>;
    return typeof o.url === 'string' && typeof o.pid === 'number' && typeof o.startedAt === 'number' ? { url: o.url, pid: o.pid, startedAt: o.startedAt } : null;
  } catch {
    return null;
  }
}
