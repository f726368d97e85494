/**
 * The `stagecraft` command as users run it, for tests: `node bin/stagecraft.mjs …` in a child
 * process, so what is tested is the compiled JavaScript in dist/ that ships (bin rebuilds it first
 * when a source changed). Asynchronous, so a test may serve the child from its own process (a
 * model endpoint) while it runs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin', 'stagecraft.mjs');

export type CliResult = { code: number; out: string; err: string };
export type CliOptions = { env?: NodeJS.ProcessEnv; stdin?: string; cwd?: string; nodeArgs?: string[] };

/** run the command to its end; `env` defaults to this process's (read when called) */
export function runCli(argv: string[], opts: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), BIN, ...argv], { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.stdin.on('error', () => {}); // a command that never reads its stdin may exit before it is written
    child.stdin.end(opts.stdin ?? '');
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), out, err }));
  });
}

export type TempCliEnv = {
  /** a new empty folder for the test's files, removed by `cleanup` */
  dir: string;
  /** the embedded store's folder (STAGECRAFT_DATA_DIR): `data` in `dir`, made by the command that first opens it */
  dataDir: string;
  /** this process's env on that store: without DATABASE_URL, so no test reaches a Postgres by accident */
  env: NodeJS.ProcessEnv;
  cleanup: () => void;
};

/** A temporary folder and an env that runs the command on its own embedded store there; pass `cleanup` to `after`. */
export function tempCliEnv(prefix: string): TempCliEnv {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const dataDir = path.join(dir, 'data');
  const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  return { dir, dataDir, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** what a command printed as JSON Lines (`events --follow --json`): each line parsed */
export const jsonLinesOf = (out: string): unknown[] =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
