/**
 * A throwaway Postgres server of a test's own: `initdb` into a temp dir, on a
 * free loopback port, started and stopped with `pg_ctl`. For the tests that
 * restart or crash the database under running work (the chaos and health
 * tests): they must never do that to the shared server other tests use.
 *
 * Owns: creating, starting, stopping (`fast`: a clean shutdown; `immediate`:
 * a crash, recovered from the WAL on the next start) and removing the
 * cluster. As root it runs the server binaries as the `postgres` user (initdb
 * and postgres refuse root). Does not: create databases (createTestDatabase
 * can, given this server's admin URL).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type PrivatePostgres = {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` */
  adminUrl: string;
  port: number;
  /** a URL for database `name` on this server */
  urlFor(name: string): string;
  start(): void;
  /** `fast`: a clean shutdown; `immediate`: the server stops as if it crashed (recovery on the next start) */
  stop(mode?: 'fast' | 'immediate'): void;
  restart(mode?: 'fast' | 'immediate'): void;
  isRunning(): boolean;
  /** the server's log, for a failing test's message */
  log(): string;
  remove(): void;
};

/** Where Debian keeps the server binaries (PG_BINDIR overrides). */
export function pgBinDir(): string {
  if (process.env.PG_BINDIR) return process.env.PG_BINDIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(path.join(root, v, 'bin', 'pg_ctl'))) return path.join(root, v, 'bin');
  throw new Error(`no Postgres server binaries under ${root} (apt-get install postgresql, or set PG_BINDIR)`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export async function createPrivatePostgres(opts: { prefix?: string } = {}): Promise<PrivatePostgres> {
  const bin = pgBinDir();
  const dir = mkdtempSync(path.join(os.tmpdir(), opts.prefix ?? 'sc-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const port = await freePort();
  const run = (tool: string, args: string[], check = true) => {
    const cmd = asRoot ? 'runuser' : path.join(bin, tool);
    const argv = asRoot ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args;
    const r = spawnSync(cmd, argv, { encoding: 'utf8', cwd: dir });
    if (check && r.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}\n${readLog()}`);
    return r;
  };
  const readLog = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-4000) : '');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  // the socket lives in our own dir (never the shared server's /var/run/postgresql); fsync stays on:
  // the chaos test crashes this server and counts on what it acknowledged as durable
  const serverOpts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=32MB`;
  const isRunning = () => run('pg_ctl', ['-D', data, 'status'], false).status === 0;
  const pg: PrivatePostgres = {
    port,
    adminUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    urlFor: (name) => `postgresql://postgres@127.0.0.1:${port}/${name}`,
    start: () => void run('pg_ctl', ['-D', data, '-l', logFile, '-o', serverOpts, '-w', '-t', '60', 'start']),
    stop: (mode = 'fast') => void run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']),
    restart: (mode = 'fast') => {
      pg.stop(mode);
      pg.start();
    },
    isRunning,
    log: readLog,
    remove: () => {
      if (isRunning()) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'], false);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  pg.start();
  return pg;
}

function postgresUser(): { uid: number; gid: number } {
  const out = execFileSync('id', ['postgres'], { encoding: 'utf8' });
  const uid = Number(/uid=(\d+)/.exec(out)?.[1]);
  const gid = Number(/gid=(\d+)/.exec(out)?.[1]);
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error(`cannot tell the postgres user's ids from: ${out}`);
  return { uid, gid };
}
