// The embedded template: a fresh data dir is a copy of one migrated cluster built once per
// install, each copy a database of its own; a changed migration history gets its own template;
// a cache that cannot be used falls back to initdb.
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ensureTemplate, templateKey, TemplateBusyError } from './embedded-template';
import { defaultMigrationPaths, readLocalMigrations } from './migrate/migrations';
import { openStore } from './open-store';
import { ev, makeRun } from './testing/fixtures';
import { tempDir } from './testing/pg-test-db';

const tmp = tempDir('stagecraft-template-');
after(() => tmp.remove());

/** [path, permission bits, is a folder] of `dir` and everything under it */
function modes(dir: string): [string, number, boolean][] {
  const out: [string, number, boolean][] = [[dir, statSync(dir).mode & 0o777, true]];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...modes(p));
    else out.push([p, statSync(p).mode & 0o777, false]);
  }
  return out;
}

/** Runs `fn` with STAGECRAFT_CACHE_DIR set to `dir`. */
async function withCacheDir<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.STAGECRAFT_CACHE_DIR;
  process.env.STAGECRAFT_CACHE_DIR = dir;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.STAGECRAFT_CACHE_DIR;
    else process.env.STAGECRAFT_CACHE_DIR = saved;
  }
}

describe('embedded template', () => {
  it('is built by one process at a time, and every fresh data dir is an independent copy of it', async () => {
    const cache = path.join(tmp.dir, 'cache');
    // what older installs left: a template of another history unused for weeks, one used today (by
    // another checkout sharing the cache), a build and a removal abandoned hours ago
    const weeksAgo = new Date(Date.now() - 30 * 24 * 3600_000);
    const hoursAgo = new Date(Date.now() - 3 * 3600_000);
    for (const [name, at] of [['pglite-0123456789abcdef', weeksAgo], ['pglite-fedcba9876543210', new Date()]] as const) {
      mkdirSync(path.join(cache, name), { recursive: true });
      writeFileSync(path.join(cache, name, 'stagecraft-template.txt'), 'old\n');
      utimesSync(path.join(cache, name, 'stagecraft-template.txt'), at, at);
    }
    for (const name of ['pglite-0123456789abcdef.building-1-deadbeef', 'pglite-0123456789abcdef.removing-1-deadbeef']) {
      mkdirSync(path.join(cache, name));
      utimesSync(path.join(cache, name), hoursAgo, hoursAgo);
    }
    await withCacheDir(cache, async () => {
      let builds = 0;
      const [a, b] = await Promise.allSettled([ensureTemplate(undefined, () => builds++), ensureTemplate(undefined, () => builds++)]);
      assert.equal(builds, 1, 'one build');
      assert.equal(a.status, 'fulfilled');
      assert.equal(b.status, 'rejected', 'the second asker does not build it again');
      assert.ok((b as PromiseRejectedResult).reason instanceof TemplateBusyError);
      const t = (a as PromiseFulfilledResult<Awaited<ReturnType<typeof ensureTemplate>>>).value;
      assert.deepEqual(readdirSync(cache).sort(), [path.basename(t.dir), 'pglite-fedcba9876543210'], 'leftovers gone, a template in use kept');
      const all = readLocalMigrations(defaultMigrationPaths().migrationsDir).map((m) => m.name);
      assert.deepEqual(t.migrations, all);
      // readable by every user of the install (Postgres makes its files 0600: an install by root left
      // one no other user could copy, and each of their data dirs ran initdb instead)
      const closed = modes(t.dir).filter(([, mode, isDir]) => (mode & (isDir ? 0o005 : 0o004)) !== (isDir ? 0o005 : 0o004));
      assert.deepEqual(closed, [], 'every file and folder of the template readable by all');

      // found, not built, from now on
      assert.equal((await ensureTemplate(undefined, () => builds++)).dir, t.dir);
      assert.equal(builds, 1);

      // a copy a killed process left beside the data dir is not taken for a cluster
      mkdirSync(path.join(tmp.dir, 'one', 'pglite.seeding-1-deadbeef', 'base'), { recursive: true });
      const progress: string[] = [];
      const one = await openStore({ dataDir: path.join(tmp.dir, 'one'), onProgress: (m) => progress.push(m) });
      const two = await openStore({ dataDir: path.join(tmp.dir, 'two') });
      try {
        assert.deepEqual(readdirSync(path.join(tmp.dir, 'one')).sort(), ['pglite', 'store.lock']);
        // the copy holds this user's runs: private to it again (but the catalog caches PGlite writes
        // itself at each start, with its own mode: they hold no rows)
        const open = modes(path.join(tmp.dir, 'one', 'pglite')).filter(([p, mode]) => (mode & 0o077) !== 0 && path.basename(p) !== 'pg_internal.init');
        assert.deepEqual(open, [], 'the copy is private');
        assert.equal(progress.length, 1, 'the template exists: nothing to prepare');
        assert.match(progress[0], /creating the embedded database in .*one/);
        // the copy was migrated, as far as anyone asking the store can tell
        assert.deepEqual(one.migrations, { applied: all, skipped: false });
        const run = makeRun({ id: 'run-in-one' });
        await one.createRun(run, { events: [ev(run.id, 1)] });
        assert.deepEqual(await one.getRun(run.id), run);
        assert.equal(await two.getRun(run.id), null, 'copies share nothing');
      } finally {
        await one.close();
        await two.close();
      }
      const reopened = await openStore({ dataDir: path.join(tmp.dir, 'one'), onProgress: (m) => progress.push(m) });
      try {
        assert.deepEqual(reopened.migrations, { applied: [], skipped: true });
        assert.ok(await reopened.getRun('run-in-one'));
        assert.equal(progress.length, 1, 'an existing data dir is opened, not created');
      } finally {
        await reopened.close();
      }
    });
  });

  it('is keyed by the migration history and the PGlite version', () => {
    const paths = defaultMigrationPaths();
    const copy = path.join(tmp.dir, 'migrations-copy');
    cpSync(paths.migrationsDir, copy, { recursive: true });
    const copied = { ...paths, migrationsDir: copy };
    assert.equal(templateKey(copied), templateKey(paths));
    assert.notEqual(templateKey(copied, '0.0.0'), templateKey(paths));
    const last = readLocalMigrations(copy).at(-1)!.name;
    appendFileSync(path.join(copy, last, 'migration.sql'), '\n-- changed\n');
    assert.notEqual(templateKey(copied), templateKey(paths));
  });

  it('a cache that cannot be used means initdb in place, and the progress says why', async () => {
    const notADir = path.join(tmp.dir, 'cache-is-a-file');
    writeFileSync(notADir, 'x');
    await withCacheDir(notADir, async () => {
      const progress: string[] = [];
      const store = await openStore({ dataDir: path.join(tmp.dir, 'fallback'), onProgress: (m) => progress.push(m) });
      try {
        assert.ok(store.migrations.applied.length >= 3);
        assert.equal(store.backend, 'pglite');
        assert.ok(existsSync(path.join(tmp.dir, 'fallback', 'pglite', 'PG_VERSION')));
        assert.match(progress.join('\n'), /template could not be used \(.*cache-is-a-file.*\); running initdb instead/);
      } finally {
        await store.close();
      }
    });
  });
});
