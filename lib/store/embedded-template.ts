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
 * complete, so a process never copies a half-built one and two processes
 * building the same template at once both succeed (the second rename loses and
 * its copy is discarded).
 *
 * Owns: the cache directory (STAGECRAFT_CACHE_DIR, else node_modules/.cache/stagecraft
 * beside the installed PGlite), building, finding and copying templates.
 * Does not: open the data dir or lock it (open-store.ts), or fail an open: any
 * trouble with the cache means "no template", and the caller runs initdb as before.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { resolveInstalled } from '../resolve-installed';
import { defaultMigrationPaths, LOCKFILE_NAME, readLocalMigrations, type MigrationPaths } from './migrate/migrations';
import { deployToPglite } from './migrate/targets';

/** written last into a template: its migrations, one per line */
const READY_FILE = 'stagecraft-template.txt';

/** The installed PGlite: its version (part of the key) and the node_modules it lives in. */
function installedPglite(): { version: string; nodeModules: string } {
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
export function templateCacheDir(): string {
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

/**
 * The template for `paths`, built if there is none yet (initdb + migrations, seconds).
 * `onBuild` is told before a build starts. Throws when it cannot be found or built.
 */
export async function ensureTemplate(paths: MigrationPaths = defaultMigrationPaths(), onBuild?: () => void): Promise<Template> {
  const root = templateCacheDir();
  const dir = path.join(root, `pglite-${templateKey(paths)}`);
  const found = readTemplate(dir);
  if (found) return found;
  onBuild?.();
  mkdirSync(root, { recursive: true });
  const building = `${dir}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(building);
    const db = await PGlite.create(building);
    let applied: string[];
    try {
      applied = (await deployToPglite(db, paths)).applied;
    } finally {
      await db.close();
    }
    writeFileSync(path.join(building, READY_FILE), applied.map((m) => `${m}\n`).join(''));
    try {
      renameSync(building, dir);
    } catch (e) {
      // another process finished the same template first: use its copy
      const theirs = readTemplate(dir);
      if (!theirs) throw e;
      return theirs;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  const built = readTemplate(dir);
  if (!built) throw new Error(`the template in ${dir} vanished after it was built`);
  pruneOthers(root, path.basename(dir));
  return built;
}

/** a build dir this old was left by a process that died while building */
const STALE_BUILD_MS = 60 * 60 * 1000;

/**
 * Removes the templates of other keys (an older migration history or PGlite: ~40 MB each) and
 * builds abandoned long ago. A process copying one of them at that moment fails its copy and
 * runs initdb instead, which is slower but correct.
 */
function pruneOthers(root: string, keep: string): void {
  for (const name of readdirSync(root)) {
    if (!name.startsWith('pglite-') || name === keep) continue;
    const dir = path.join(root, name);
    try {
      const isBuild = name.includes('.building-');
      if (isBuild && Date.now() - statSync(dir).mtimeMs < STALE_BUILD_MS) continue;
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // gone already, or not ours to remove: either way nothing to do
    }
  }
}

/**
 * Makes the empty directory `pgdata` a copy of the template (built first if need be) and
 * returns the migrations it holds. Null when there is no usable template: the caller runs
 * initdb in `pgdata` instead, exactly as without templates.
 */
export async function seedFromTemplate(pgdata: string, paths?: MigrationPaths, onBuild?: () => void): Promise<string[] | null> {
  let template: Template;
  try {
    template = await ensureTemplate(paths, onBuild);
  } catch {
    return null;
  }
  try {
    for (const name of readdirSync(template.dir)) {
      if (name !== READY_FILE) cpSync(path.join(template.dir, name), path.join(pgdata, name), { recursive: true });
    }
    return template.migrations;
  } catch {
    // a partial copy must not be mistaken for a cluster
    for (const name of readdirSync(pgdata)) rmSync(path.join(pgdata, name), { recursive: true, force: true });
    return null;
  }
}
