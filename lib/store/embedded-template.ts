/**
 * A ready-made embedded cluster that a fresh data dir starts as a copy of.
 *
 * PGlite's initdb costs seconds (3–9 s measured here) and applying our
 * migrations ~1 s more, on every new data dir; copying a cleanly closed,
 * migrated cluster costs ~0.3 s and opening it ~1 s. So the first data dir of
 * an install builds a template once (`npm install` does it in its postinstall,
 * scripts/db-template.mjs), and every fresh data dir after it is a copy.
 *
 * A template is keyed by what its files depend on: the PGlite version and the
 * migration history (each migration's name and checksum, and the lockfile). A
 * changed history or an upgraded PGlite gets a template of its own; a data dir
 * copied from a template then goes through the normal migration deploy like any
 * other, so it can never end up with a different schema than initdb would give.
 *
 * A template is built in a private directory and renamed into place when it is
 * complete, by one process at a time (a lock file beside it: another process
 * asking meanwhile runs initdb rather than build the same thing on the same
 * cores). A data dir's copy is likewise made beside it and renamed into place,
 * so neither a half-built template nor a half-made copy is ever opened.
 * Templates of other keys unused for a week are removed when a new one is built.
 *
 * Owns: the cache directory (STAGECRAFT_CACHE_DIR, else node_modules/.cache/stagecraft
 * beside the installed PGlite), building, finding and copying templates.
 * Does not: open the data dir or lock it (open-store.ts), or fail an open: any
 * trouble with the cache means "no template", and the caller runs initdb as before.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { resolveInstalled } from '../resolve-installed';
import { defaultMigrationPaths, LOCKFILE_NAME, readLocalMigrations, type MigrationPaths } from './migrate/migrations';
import { deployToPglite } from './migrate/targets';

/** written last into a template: its migrations, one per line */
const READY_FILE = 'stagecraft-template.txt';

let installed: { version: string; nodeModules: string } | null = null;

/** The installed PGlite: its version (part of the key) and the node_modules it lives in (found once). */
function installedPglite(): { version: string; nodeModules: string } {
  return (installed ??= findInstalledPglite());
}

function findInstalledPglite(): { version: string; nodeModules: string } {
  let dir = path.dirname(resolveInstalled('@electric-sql/pglite'));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg)) {
      const json = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string; version?: string };
      if (json.name === '@electric-sql/pglite') return { version: String(json.version), nodeModules: path.resolve(dir, '../..') };
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('the installed @electric-sql/pglite has no package.json');
    dir = up;
  }
}

/** Where templates are kept: STAGECRAFT_CACHE_DIR, else node_modules/.cache/stagecraft. */
function templateCacheDir(): string {
  return process.env.STAGECRAFT_CACHE_DIR || path.join(installedPglite().nodeModules, '.cache', 'stagecraft');
}

/** The key of the template for this PGlite and this migration history. */
export function templateKey(paths: MigrationPaths = defaultMigrationPaths(), pgliteVersion = installedPglite().version): string {
  const h = createHash('sha256').update(`pglite ${pgliteVersion}\n`);
  for (const m of readLocalMigrations(paths.migrationsDir)) h.update(`${m.name} ${m.checksum}\n`);
  const lock = path.join(paths.migrationsDir, LOCKFILE_NAME);
  if (existsSync(lock)) h.update(readFileSync(lock));
  return h.digest('hex').slice(0, 16);
}

export type Template = { dir: string; migrations: string[] };

function readTemplate(dir: string): Template | null {
  const ready = path.join(dir, READY_FILE);
  if (!existsSync(ready)) return null;
  return { dir, migrations: readFileSync(ready, 'utf8').split('\n').filter(Boolean) };
}

/** Another process is building this template right now: the caller does without it this time. */
export class TemplateBusyError extends Error {
  constructor(dir: string) {
    super(`the embedded database template ${dir} is being built by another process`);
    this.name = 'TemplateBusyError';
  }
}

/** a build lock this old was left by a process that died while building */
const STALE_BUILD_MS = 10 * 60 * 1000;
/** a template of another key unused this long is removed when a new one is built */
const UNUSED_TEMPLATE_MS = 7 * 24 * 3600 * 1000;

/**
 * The template for `paths`, built if there is none yet (initdb + migrations, seconds). One
 * process builds a given template at a time (a lock file beside it); another one asking
 * meanwhile gets TemplateBusyError rather than building the same thing on the same cores.
 * `onBuild` is told once a build starts. Throws when it cannot be found or built.
 */
export async function ensureTemplate(paths: MigrationPaths = defaultMigrationPaths(), onBuild?: () => void): Promise<Template> {
  const root = templateCacheDir();
  const dir = path.join(root, `pglite-${templateKey(paths)}`);
  const found = readTemplate(dir);
  if (found) return touched(found);
  mkdirSync(root, { recursive: true });
  const lock = takeBuildLock(`${dir}.lock`);
  if (!lock) throw new TemplateBusyError(dir);
  const building = `${dir}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const again = readTemplate(dir); // finished while we took the lock
    if (again) return touched(again);
    // a directory without its ready file is a template whose removal was cut short: not usable
    if (existsSync(dir)) removeDir(dir);
    onBuild?.();
    mkdirSync(building);
    const db = await PGlite.create(building);
    let applied: string[];
    try {
      applied = (await deployToPglite(db, paths)).applied;
    } finally {
      await db.close();
    }
    writeFileSync(path.join(building, READY_FILE), applied.map((m) => `${m}\n`).join(''));
    openToAll(building);
    renameSync(building, dir);
  } finally {
    rmSync(building, { recursive: true, force: true });
    rmSync(lock, { force: true });
  }
  const built = readTemplate(dir);
  if (!built) throw new Error(`the template in ${dir} vanished after it was built`);
  pruneOthers(root, path.basename(dir));
  return built;
}

/** The lock file's path when this process now holds it, else null (another build is under way). */
function takeBuildLock(file: string): string | null {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let age = 0;
      try {
        age = Date.now() - statSync(file).mtimeMs;
      } catch {
        continue; // released meanwhile: try again
      }
      if (age < STALE_BUILD_MS) return null;
      rmSync(file, { force: true }); // its builder died
    }
  }
  return null;
}

/** Marks a template as used (its ready file's mtime), so that pruning keeps what is in use. */
function touched(t: Template): Template {
  try {
    const now = new Date();
    const ready = path.join(t.dir, READY_FILE);
    utimesSync(ready, now, now);
    // one built before templates were open to all: opened by its owner as it is used (a data dir is
    // made rarely, and a copy of the template costs far more than this walk)
    if (statSync(ready).uid === process.getuid?.()) openToAll(t.dir);
  } catch {
    // read-only cache, or another user's: the template still works
  }
  return t;
}

/** Every entry under `dir` (and `dir`) given `dirMode` or `fileMode`; links are left as they are. */
function chmodTree(dir: string, dirMode: number, fileMode: number): void {
  chmodSync(dir, dirMode);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) chmodTree(p, dirMode, fileMode);
    else if (e.isFile()) chmodSync(p, fileMode);
  }
}

/**
 * A template readable by every user of the install: Postgres makes most of its files 0600, so an
 * install made by root (a Docker image's npm ci) left a template no other user could copy, and each
 * of their new data dirs ran initdb (seconds) instead. It is an empty, migrated cluster: nothing in
 * it is anyone's. A copy is made private again (`makePrivate`).
 */
function openToAll(dir: string): void {
  chmodTree(dir, 0o755, 0o644);
}

/** A data dir's copy of the template, private to its user (0700 folders, 0600 files), as it holds their runs from now on. */
function makePrivate(dir: string): void {
  chmodTree(dir, 0o700, 0o600);
}

/** Renamed aside first, so that a process copying from `dir` meets a missing directory, never a half-deleted one. */
function removeDir(dir: string): void {
  const aside = `${dir}.removing-${process.pid}-${randomBytes(4).toString('hex')}`;
  renameSync(dir, aside);
  rmSync(aside, { recursive: true, force: true });
}

/**
 * Removes what is left of older installs: templates of other keys (an older migration history or
 * PGlite: ~40 MB each) unused for a week, and builds and removals abandoned by dead processes.
 * Templates in use by other checkouts sharing the cache are kept.
 */
function pruneOthers(root: string, keep: string): void {
  const now = Date.now();
  for (const name of readdirSync(root)) {
    if (!name.startsWith('pglite-') || name === keep || name.endsWith('.lock')) continue;
    const dir = path.join(root, name);
    try {
      const leftover = name.includes('.building-') || name.includes('.removing-');
      const usedAt = statSync(leftover ? dir : path.join(dir, READY_FILE)).mtimeMs;
      if (now - usedAt > (leftover ? STALE_BUILD_MS : UNUSED_TEMPLATE_MS)) removeDir(dir);
    } catch {
      // gone already, or not ours to remove: either way nothing to do
    }
  }
}

/** Why a fresh data dir could not start from the template; the caller then runs initdb. */
export type NoTemplate = { reason: string };

/**
 * Makes `pgdata` (which must not exist yet) a copy of the template, built first if need be, and
 * returns the migrations it holds — or, when there is no usable template, why not: the caller
 * then runs initdb in `pgdata`, exactly as without templates. The copy is made beside `pgdata`
 * and renamed into place once complete, so an interrupted copy never passes for a cluster.
 */
export async function seedFromTemplate(pgdata: string, paths?: MigrationPaths, onBuild?: () => void): Promise<string[] | NoTemplate> {
  let template: Template;
  try {
    template = await ensureTemplate(paths, onBuild);
  } catch (e) {
    return { reason: (e as Error).message };
  }
  const copy = `${pgdata}.seeding-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    cpSync(template.dir, copy, { recursive: true });
    // the template was removed while we copied (pruned by another install): the copy may be short
    if (!existsSync(path.join(template.dir, READY_FILE)) || !existsSync(path.join(copy, READY_FILE))) {
      throw new Error(`the template ${template.dir} was removed while it was being copied`);
    }
    rmSync(path.join(copy, READY_FILE));
    makePrivate(copy);
    renameSync(copy, pgdata);
    return template.migrations;
  } catch (e) {
    return { reason: (e as Error).message };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** Removes the copies a process killed while seeding left beside `pgdata` (the caller holds the data dir's lock). */
export function removeAbandonedSeeds(pgdata: string): void {
  const parent = path.dirname(pgdata);
  const prefix = `${path.basename(pgdata)}.seeding-`;
  for (const name of readdirSync(parent)) if (name.startsWith(prefix)) rmSync(path.join(parent, name), { recursive: true, force: true });
}
