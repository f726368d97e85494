/**
 * Opening the embedded store: PGlite under the data dir (locked to this process: data-dir-lock.ts),
 * seeded from the install's template on first use (embedded-template.ts), migrations applied, and
 * Prisma's client imported and made on first use. Imported only when no database URL is given, so an embedded
 * process never loads pg.
 */
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { StoreUnavailableError } from '../kernel/errors';
import { acquireDataDirLock, LOCK_FILE } from './data-dir-lock';
import { hostFilesError } from './host-files';
import { removeAbandonedSeeds, seedFromTemplate } from './embedded-template';
import { deployToPglite } from './migrate/targets';
import type { DeployResult } from './migrate/migrations';
import { migrationFailed } from './open-errors';
import { preloadedPgliteAssets } from './pglite-assets';
import { opText } from './wire';
import type { OpenedStore, OpenStoreOptions } from './open-store';

/**
 * What the store is made of once the database is up (the store, its line): imported while PGlite
 * starts — PGlite reads its 15 MB of files and compiles its WebAssembly off this thread first, and
 * these modules load in that wait instead of before it.
 */
async function storeModules() {
  const [{ PrismaStore }, { EmbeddedLine }, { LocalClaims }, { keepUp }] = await Promise.all([
    import('./prisma-store'),
    import('./embedded-line'),
    import('./claims'),
    import('./embedded-upkeep'),
  ]);
  return { PrismaStore, EmbeddedLine, LocalClaims, keepUp };
}

/**
 * Prisma's client and its adapter: imported when the store first needs the client (skills, the
 * runs list, …), never by a `run`, whose reads and writes are plain SQL (~85 ms of this thread's
 * time saved). A module missing from the install fails that first use, with node's own error.
 */
async function prismaModules() {
  const [{ PrismaPGlite }, { PrismaClient }] = await Promise.all([import('pglite-prisma-adapter'), import('./generated/prisma/client')]);
  return { PrismaPGlite, PrismaClient };
}

/** the PGlite cluster's directory inside the data dir (the lock file sits beside it) */
export const PGLITE_SUBDIR = 'pglite';
/**
 * Postgres's buffer cache in the embedded database. initdb writes 128MB, and PGlite touches all of
 * it as it starts: 100 MB of resident memory in every process that opens the store. Postgres's
 * whole shared memory (this and ~7 MB more) is zeroed by a memset that runs in V8's baseline Wasm
 * code as PGlite starts, ~4.5 ms per MB of the opener's main thread. A long-lived opener (the app)
 * keeps 16MB: it pays that once and reads runs all day. A CLI command, which opens the store for
 * one run or one answer, asks for COMMAND_SHARED_BUFFERS: 4MB cost ~20 ms of every `stagecraft run`
 * where 16MB cost ~70. The embedded store holds one person's runs; pages either evicts are still in
 * the OS's file cache, a read away.
 */
export const EMBEDDED_SHARED_BUFFERS = '16MB';

/** PGlite's start parameters for the embedded store */
export function embeddedStartParams(sharedBuffers = EMBEDDED_SHARED_BUFFERS): string[] {
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`];
}

/**
 * The data dir's lock, or why this process cannot write it said as a store that cannot be opened:
 * a folder that is there but not writable here (another user's, a read-only mount, /sys) failed
 * with node's error and its stack, as an internal error.
 */
function lockDataDir(dataDir: string): ReturnType<typeof acquireDataDirLock> {
  try {
    return acquireDataDirLock(dataDir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof StoreUnavailableError || typeof code !== 'string') throw e;
    // a full disk, or no descriptors left, is not a folder to change: said as what it is (host-files.ts)
    const files = hostFilesError(e, dataDir);
    if (files && (files.code === 'disk_full' || files.code === 'too_many_open_files')) throw files;
    throw new StoreUnavailableError(
      'store_unavailable',
      `Cannot write in the embedded store's directory ${dataDir} (its lock, ${LOCK_FILE}): ${(e as Error).message}. ` +
        'Set STAGECRAFT_DATA_DIR to a writable directory, or DATABASE_URL to a Postgres server.',
      { dataDir, errno: code },
    );
  }
}

export async function openEmbedded(dataDir: string, opts: OpenStoreOptions): Promise<OpenedStore> {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (e) {
    throw new StoreUnavailableError(
      'store_unavailable',
      `Cannot create the embedded store's directory ${dataDir}: ${(e as Error).message}. ` +
        'Set STAGECRAFT_DATA_DIR to a writable directory, or DATABASE_URL to a Postgres server.',
      { dataDir },
    );
  }
  const lock = lockDataDir(dataDir);
  let db: PGlite | null = null;
  try {
    // A fresh dir starts as a copy of the install's template cluster (embedded-template.ts);
    // without one, PGlite runs initdb (seconds) in an empty dir (it does not create parents).
    const pgdata = path.join(dataDir, PGLITE_SUBDIR);
    removeAbandonedSeeds(pgdata);
    if (existsSync(pgdata) && readdirSync(pgdata).length === 0) rmdirSync(pgdata);
    // initdb (below, without a template) that never finished: nothing was ever stored there, start afresh
    const initdbMark = `${pgdata}.initdb-unfinished`;
    if (existsSync(initdbMark)) {
      rmSync(pgdata, { recursive: true, force: true });
      rmSync(initdbMark, { force: true });
    }
    // PGlite takes a folder without PG_VERSION for a new one and runs initdb over what it holds:
    // a damaged data dir would open empty (its runs gone, `runs` saying "no runs yet", exit 0)
    if (existsSync(pgdata) && !existsSync(path.join(pgdata, 'PG_VERSION'))) throw damaged(dataDir, `${pgdata} holds files but no PG_VERSION, so PGlite would make a new, empty database over them`);
    let seeded: string[] | null = null;
    if (!existsSync(pgdata)) {
      opts.onProgress?.(`creating the embedded database in ${dataDir}`);
      const r = await seedFromTemplate(pgdata, opts.migrationPaths, () =>
        opts.onProgress?.('preparing the embedded database template (once per install; a few seconds)'),
      );
      if (Array.isArray(r)) seeded = r;
      else {
        opts.onProgress?.(`the database template could not be used (${r.reason}); running initdb instead, which takes longer`);
        writeFileSync(initdbMark, `initdb started by ${process.pid}: not finished while this file is here\n`);
        mkdirSync(pgdata);
      }
    }
    const loading = storeModules();
    loading.catch(() => undefined); // settled below, with the database's start
    // PGlite's WebAssembly and file system, when a command preloaded them (pglite-assets.ts)
    const early = await preloadedPgliteAssets();
    const creating = PGlite.create(pgdata, { ...early, startParams: embeddedStartParams(opts.sharedBuffers) });
    const [created, loaded] = await Promise.allSettled([creating, loading]);
    if (created.status === 'rejected') throw created.reason;
    db = created.value;
    rmSync(initdbMark, { force: true }); // initdb (if it ran) is done: from now on a missing PG_VERSION is damage
    if (loaded.status === 'rejected') throw new ModulesUnavailable(loaded.reason);
    const { PrismaStore, EmbeddedLine, LocalClaims, keepUp } = loaded.value;
    const deployed = await deployToPglite(db, opts.migrationPaths);
    // a copied template holds its migrations already: they were applied to this data dir all the same
    const migrations: DeployResult = seeded ? { applied: [...seeded, ...deployed.applied], skipped: false } : deployed;
    const opened = db;
    // one line for all of it: reads someone waits on first, the server's requests served between two uses, writes batched
    const line = new EmbeddedLine(opened);
    const makeClient = async () => {
      const { PrismaPGlite, PrismaClient } = await prismaModules();
      return new PrismaClient({ adapter: new PrismaPGlite(line.gated()) });
    };
    // the VACUUM and ANALYZE autovacuum would give it (embedded-upkeep.ts), for the process that
    // keeps the store open (`upkeep`: the app); a failed upkeep changes nothing read or written,
    // is said on stderr, and is tried again at the next check
    const upkeep = opts.upkeep
      ? keepUp(line, opened, (e) => console.warn(`stagecraft: the embedded store's upkeep (VACUUM, ANALYZE) failed, tried again in a minute: ${e instanceof Error ? e.message : String(e)}`))
      : null;
    const store = new PrismaStore({
      apply: (_runId, op, direct) => (direct ? line.applyDirect(direct, op) : line.apply(opText(op))),
      sql: (text, values) => line.use(async () => (await opened.query<Record<string, unknown>>(text, values)).rows),
      makeClient,
      claims: new LocalClaims(),
      backend: 'pglite',
      location: dataDir,
      onClose: async () => {
        try {
          await upkeep?.stop();
          await opened.close();
        } finally {
          lock.release();
        }
      },
    });
    return Object.assign(store, { migrations });
  } catch (e) {
    const opened = db as PGlite | null;
    await opened?.close().catch(() => {});
    lock.release();
    if (e instanceof StoreUnavailableError) throw e;
    // an install missing a module of the store: said as it is, not as a migration that failed
    if (e instanceof ModulesUnavailable) throw e.cause;
    if (db) throw migrationFailed(dataDir, e);
    const why = pgliteWords((e as Error).message);
    const theirs = notThisUsers(path.join(dataDir, PGLITE_SUBDIR));
    throw theirs ? notThisUsersError(dataDir, why, theirs) : damaged(dataDir, why);
  }
}

/** entries of a data dir's database looked at for one this process cannot read and write (the rest go unchecked) */
const MAX_ENTRIES_CHECKED = 20_000;

/**
 * The first file or folder of the database in `pgdata` that this process cannot read and write
 * (another user's: a first command run with sudo, a data dir copied as root), or null. PGlite says
 * only that it failed, or node an EACCES, which read as a damaged data dir to move aside.
 */
function notThisUsers(pgdata: string): string | null {
  const todo = [pgdata];
  for (let seen = 0; todo.length && seen < MAX_ENTRIES_CHECKED; seen++) {
    const at = todo.pop() as string;
    try {
      accessSync(at, constants.R_OK | constants.W_OK);
      if (lstatSync(at).isDirectory()) for (const name of readdirSync(at)) todo.push(path.join(at, name));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return at;
    }
  }
  return null;
}

/** the database's files are not this user's to read and write: that, and what to do, instead of moving a sound data dir aside */
function notThisUsersError(dataDir: string, why: string, at: string): StoreUnavailableError {
  const who = process.getuid ? `this user (uid ${process.getuid()})` : 'this user';
  return new StoreUnavailableError(
    'store_unavailable',
    `Cannot open the embedded store in ${dataDir}: ${why}. ${at} cannot be read and written by ${who}: ` +
      "the data dir's files belong to another user or are read-only. Give them to this user (chown -R), or run " +
      'stagecraft as the user who made them, or set STAGECRAFT_DATA_DIR to a data dir of your own.',
    { dataDir, path: at },
  );
}

/**
 * PGlite's refusal without what its WebAssembly runtime adds for the people who build it (`Aborted().
 * Build with -sASSERTIONS for more info.`) and without a closing full stop (the sentence goes on).
 */
function pgliteWords(message: string): string {
  const said = message.replace(/\s*Build with -sASSERTIONS for more info\.?/, '').trim().replace(/\.$/, '');
  return /^Aborted\(\)$/.test(said) ? 'PGlite aborted as it read its files' : said;
}

/** a data dir PGlite cannot open (or must not): what was found, and what to do */
function damaged(dataDir: string, why: string): StoreUnavailableError {
  return new StoreUnavailableError(
    'store_unavailable',
    `Cannot open the embedded store in ${dataDir}: ${why}. If the directory was written by ` +
      'another PGlite/Postgres version or is damaged, move it aside (STAGECRAFT_DATA_DIR) and start afresh.',
    { dataDir },
  );
}

class ModulesUnavailable extends Error {
  constructor(readonly cause: unknown) {
    super('a module of the embedded store could not be loaded');
  }
}
