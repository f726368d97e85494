// A damaged embedded data dir is refused, named, and left as it was: never taken for a new one.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { openStore } from './open-store';
import { PGLITE_SUBDIR } from './open-embedded';
import { ev, makeRun } from './testing/fixtures';
import { tempDir } from './testing/pg-test-db';

const dataDir = tempDir();
after(() => dataDir.remove());

/** a data dir holding one run, closed cleanly */
async function storeWithARun(name: string): Promise<{ dir: string; runId: string }> {
  const dir = path.join(dataDir.dir, name);
  const runId = `run-damaged-${name}`;
  const store = await openStore({ dataDir: dir });
  const run = makeRun({ id: runId });
  await store.createRun(run, { events: [ev(runId, 1)], snapshot: { runId, currentPhase: 'draft', seq: 1, data: {} } });
  await store.close();
  return { dir, runId };
}

/** every file under a folder, with its size: what an open must not change */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
    .sort();
}

describe('a damaged embedded data dir', () => {
  it('one whose PG_VERSION is gone is refused as damaged, not initdb-ed over (its runs would vanish, exit 0)', async () => {
    const { dir, runId } = await storeWithARun('no-pg-version');
    const pgdata = path.join(dir, PGLITE_SUBDIR);
    rmSync(path.join(pgdata, 'PG_VERSION'));
    const before = listing(pgdata);
    let opened: Awaited<ReturnType<typeof openStore>> | null = null;
    try {
      opened = await openStore({ dataDir: dir });
    } catch (e) {
      const err = e as { code?: string; message: string };
      assert.equal(err.code, 'store_unavailable');
      assert.match(err.message, new RegExp(`Cannot open the embedded store in ${dir}`));
      assert.match(err.message, /PG_VERSION/);
      assert.match(err.message, /move it aside \(STAGECRAFT_DATA_DIR\) and start afresh/);
    } finally {
      const lost = opened ? (await opened.getRun(runId)) === null : false;
      await opened?.close();
      assert.equal(opened, null, `the damaged data dir was opened${lost ? ', without its run: initdb ran over it' : ''}`);
    }
    assert.deepEqual(listing(pgdata), before, 'the refused data dir is left as it was');
  });

  it('one whose first initdb never finished (killed while it ran, no template) starts afresh: nothing was ever stored there', async () => {
    const dir = path.join(dataDir.dir, 'initdb-killed');
    const pgdata = path.join(dir, PGLITE_SUBDIR);
    mkdirSync(path.join(pgdata, 'base'), { recursive: true }); // what initdb had written when it was killed: no PG_VERSION yet
    writeFileSync(path.join(pgdata, 'postgresql.conf'), '# half written\n');
    writeFileSync(`${pgdata}.initdb-unfinished`, 'initdb started by 1: not finished while this file is here\n');
    const store = await openStore({ dataDir: dir });
    try {
      assert.equal(await store.getRun('run-none'), null);
      assert.ok(existsSync(path.join(pgdata, 'PG_VERSION')), 'a new database was made');
      assert.ok(!existsSync(`${pgdata}.initdb-unfinished`), 'its mark is gone once the database is there');
    } finally {
      await store.close();
    }
  });

  it("one PGlite aborts on says so without emscripten's build advice", async () => {
    const { dir } = await storeWithARun('garbage-control');
    writeFileSync(path.join(dir, PGLITE_SUBDIR, 'global', 'pg_control'), Buffer.alloc(100, 7));
    await assert.rejects(openStore({ dataDir: dir }), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'store_unavailable');
      assert.match(e.message, new RegExp(`Cannot open the embedded store in ${dir}`));
      assert.doesNotMatch(e.message, /ASSERTIONS|\.\./);
      assert.match(e.message, /move it aside \(STAGECRAFT_DATA_DIR\) and start afresh/);
      return true;
    });
  });
});
