// The embedded store's upkeep on a real PGlite store: due once UPKEEP_EVERY_RUNS runs were added
// since the last one, and then the health route's count of running runs is an index-only scan that
// reads no heap page, where before it visited every ended run's dead version; not due on a small
// store, nor again right after.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { openStore } from './open-store';
import { PGLITE_SUBDIR } from './open-embedded';
import { EmbeddedLine } from './embedded-line';
import { UPKEEP_EVERY_RUNS, upkeepDue, upkeepIfDue } from './embedded-upkeep';
import { tempDir } from './testing/pg-test-db';

const COUNT_RUNNING = `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) SELECT count(*) FROM "runs" WHERE "status" = 'running'`;

/** `n` more runs, each created running and then ended, as the write path does (two writes of its row) */
async function endRuns(db: PGlite, from: number, n: number): Promise<void> {
  for (let i = from; i < from + n; i += 100) {
    const k = Math.min(100, from + n - i);
    await db.query(
      `INSERT INTO runs (id, skill_name, skill_hash, skill_text, bundle_dir, input, model, status, created_at, updated_at)
       SELECT 'run-' || g, 'demo', repeat('a', 64), 'text', '/tmp/b', '{}', 'm', 'running', now(), now() FROM generate_series($1::int, $2::int) g`,
      [i, i + k - 1],
    );
    await db.query(`UPDATE runs SET status = 'completed', updated_at = now(), report = '{"outcome":"succeeded"}' WHERE id IN (SELECT 'run-' || g FROM generate_series($1::int, $2::int) g)`, [i, i + k - 1]);
  }
}

const plan = async (db: PGlite) => (await db.query<{ 'QUERY PLAN': string }>(COUNT_RUNNING)).rows.map((r) => r['QUERY PLAN']).join('\n');

describe('embedded store upkeep', () => {
  const dir = tempDir('stagecraft-upkeep-');
  let db: PGlite;
  let line: EmbeddedLine;
  const sql = async (text: string) => (await db.query<Record<string, unknown>>(text)).rows;
  before(async () => {
    // the store's own schema, migrated as the app opens it; then the database alone, on a line of its own
    await (await openStore({ dataDir: dir.dir })).close();
    db = await PGlite.create(path.join(dir.dir, PGLITE_SUBDIR));
    line = new EmbeddedLine(db);
  });
  after(async () => {
    await db?.close();
    dir.remove();
  });

  it('is not due on a store with fewer new runs than the threshold: nothing vacuumed or analyzed', async () => {
    await endRuns(db, 0, UPKEEP_EVERY_RUNS - 200);
    assert.equal(await upkeepIfDue(line, db), false);
    const [runs] = await sql(`SELECT reltuples, relallvisible FROM pg_class WHERE oid = 'runs'::regclass`);
    assert.deepEqual(runs, { reltuples: -1, relallvisible: 0 }, 'a small store was vacuumed or analyzed');
  });

  it('runs once the threshold is passed: the count of running runs reads no heap page after it', async () => {
    await endRuns(db, UPKEEP_EVERY_RUNS, 400);
    const before = await plan(db);
    assert.match(before, /Heap Blocks: exact=\d{2,}/, `the unvacuumed count should visit the ended runs' pages:\n${before}`);
    await new Promise((r) => setImmediate(r)); // the line's last use hands it back a turn later
    assert.equal(line.idle(), true);
    assert.equal(await upkeepIfDue(line, db), true);
    const afterPlan = await plan(db);
    assert.match(afterPlan, /Index Only Scan/, afterPlan);
    assert.match(afterPlan, /Heap Fetches: 0/, afterPlan);
    const [runs] = await sql(`SELECT reltuples::int AS n FROM pg_class WHERE oid = 'runs'::regclass`);
    assert.equal(runs.n, UPKEEP_EVERY_RUNS + 200);
    // (not n_dead_tup: the updates' own counts can reach the statistics after VACUUM zeroed them — the
    // CI of 975b39f read 1200 — while "Heap Fetches: 0" above needs the visibility map only VACUUM sets)
    // analyzed, from a small sample (histograms of at most 11 bounds), and the session's target put back
    const [analyzed] = await sql(`SELECT count(*)::int AS columns, max(cardinality(histogram_bounds::text::text[]))::int AS bounds FROM pg_stats WHERE tablename = 'runs'`);
    assert.ok(Number(analyzed.columns) > 10 && Number(analyzed.bounds) <= 11, JSON.stringify(analyzed));
    assert.deepEqual(await sql('SHOW default_statistics_target'), [{ default_statistics_target: '100' }]);
  });

  it('is not due again until another threshold of runs is added', async () => {
    assert.equal(await upkeepDue(db), false);
    await endRuns(db, 10_000, UPKEEP_EVERY_RUNS - 1);
    assert.equal(await upkeepDue(db), false);
    await endRuns(db, 20_000, 1);
    assert.equal(await upkeepDue(db), true);
  });
});
