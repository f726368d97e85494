// The runs chart's figures (run-index.ts stats: the /runs page's chart, GET /api/runs/stats) read
// each run the search selects once, not twice: the totals and the counts per bucket come from one
// read of "runs" (statsSql), the failure points from the failed runs' index; over all time (the
// chart's default) that read is of runs_status_created_at_idx alone, not of the runs' rows
// (*_runs_chart_covering). At 100k runs a read of every run's row is most of the chart's time.
// The figures stay those of a direct count.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OpenedStore } from './open-store';
import { PrismaRunIndex, statsSql, type RunSearch, type RunStats } from './run-index';
import { bothBackends } from './testing/both-backends';
import { fillRuns } from './testing/fill-runs';

const RUNS = 3000;
const DAY = 86400_000;
type Db = Awaited<ReturnType<OpenedStore['db']>>;

/** the chart's figures as a direct count of the runs a WHERE clause selects, in the buckets the chart chose */
async function directCount(db: Db, where: string, s: RunStats) {
  const rows = await db.$queryRawUnsafe<{ ms: number; status: string; attention: boolean; duration: number | null }[]>(
    `SELECT (extract(epoch FROM "created_at") * 1000)::float8 AS ms, "status", "needs_attention" AS attention, "duration_ms" AS duration FROM "runs" WHERE ${where}`,
  );
  const byStatus: Record<string, number> = { queued: 0, running: 0, completed: 0, failed: 0, aborted: 0 };
  const buckets = s.buckets.map(() => ({ ...byStatus }));
  for (const r of rows) {
    byStatus[r.status]++;
    buckets[Math.min(buckets.length - 1, Math.max(0, Math.floor((r.ms - s.buckets[0].start) / s.bucketMs)))][r.status]++;
  }
  const [p] = await db.$queryRawUnsafe<{ p50: number | null; p95: number | null }[]>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY "duration_ms") AS p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY "duration_ms") AS p95 FROM "runs" WHERE ${where}`,
  );
  const round = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 1000);
  return {
    total: rows.length,
    needsAttention: rows.filter((r) => r.attention).length,
    byStatus,
    buckets,
    duration: { count: rows.filter((r) => r.duration !== null).length, p50: round(p.p50), p95: round(p.p95) },
  };
}

/** the rows each statement read from "runs" (EXPLAIN ANALYZE: its scans' rows × loops) */
async function runsRowsRead(db: Db, statements: { text: string; values: unknown[] }[]): Promise<number> {
  let read = 0;
  for (const { text, values } of statements) {
    const plan = await db.$queryRawUnsafe<Record<string, string>[]>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${text}`, ...values);
    for (const line of plan.map((r) => Object.values(r)[0]).filter((l) => / on runs r\b/.test(l))) {
      // a scan "(never executed)" (the taken-on count's probe of the parents of no completed fork) read none
      read += Number(/actual rows=([\d.]+)/.exec(line)?.[1] ?? 0) * Number(/loops=(\d+)/.exec(line)?.[1] ?? 1);
    }
  }
  return read;
}

for (const [name, open] of bothBackends()) {
  describe(`the runs chart on ${name}`, () => {
    let store: OpenedStore;
    let db: Db;
    before(async () => {
      store = await open();
      db = await store.db();
      await fillRuns((sql, ...values) => db.$executeRawUnsafe(sql, ...values), { runs: RUNS });
    });
    after(() => store.close());

    const now = Date.now();
    const cases: [string, RunSearch, string][] = [
      ['all time', {}, 'true'],
      ['one skill', { skill: 'skill_01' }, `"skill_name" = 'skill_01'`],
      ['needs attention', { needsAttention: true }, `"needs_attention"`],
      ['the last 24 h', { from: now - DAY }, `"created_at" >= to_timestamp(${(now - DAY) / 1000})`],
      ['a week, failed or aborted', { from: now - 8 * DAY, to: now - DAY, status: ['failed', 'aborted'] }, `"created_at" >= to_timestamp(${(now - 8 * DAY) / 1000}) AND "created_at" < to_timestamp(${(now - DAY) / 1000}) AND "status" IN ('failed', 'aborted')`],
    ];
    for (const [what, search, where] of cases) {
      it(`counts as a direct count does: ${what}`, async () => {
        for (const buckets of [48, 7]) {
          const s = await store.runIndex.stats(search, { buckets });
          assert.ok(s.total > 0 && s.buckets.length > 0);
          const { total, needsAttention, byStatus, duration } = s;
          assert.deepEqual(
            { total, needsAttention, byStatus, duration, buckets: s.buckets.map((b) => b.counts) },
            await directCount(db, where, s),
          );
          if (search.from !== undefined) assert.equal(s.buckets[0].start, search.from);
        }
      });
    }

    it('reads each run once: the totals and the buckets from one read (EXPLAIN ANALYZE of its statements)', async () => {
      const statements: { text: string; values: unknown[] }[] = [];
      const index = new PrismaRunIndex(db, async (text, values) => {
        statements.push({ text, values });
        return db.$queryRawUnsafe(text, ...values);
      });
      const s = await index.stats({}, { buckets: 48 });
      assert.equal(s.total, RUNS);
      const [{ failed }] = await db.$queryRawUnsafe<{ failed: number }[]>(`SELECT count(*)::int AS failed FROM "runs" WHERE "failed_at" IS NOT NULL`);
      // every run once, and the failed ones again for the failure points (their index)
      assert.ok((await runsRowsRead(db, statements)) <= RUNS + failed, statements.map((x) => x.text).join('\n---\n'));
    });

    it('over all time, reads runs_status_created_at_idx only, not the runs themselves, once vacuumed (*_runs_chart_covering)', async () => {
      // as autovacuum does on a server and embedded-upkeep.ts on PGlite: the pages all-visible
      await db.$executeRawUnsafe('VACUUM "runs"');
      const plan = (
        await db.$queryRawUnsafe<Record<string, string>[]>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${statsSql('true', 0)}`, null, null, 48, [1000, 86400_000])
      ).map((r) => Object.values(r)[0]);
      const scans = plan.filter((l) => / on runs r\b/.test(l));
      assert.equal(scans.length, 1, plan.join('\n'));
      assert.match(scans[0], /Index Only Scan using runs_status_created_at_idx on runs r/, plan.join('\n'));
      assert.ok(plan.some((l) => /Heap Fetches: 0\b/.test(l)), plan.join('\n'));
    });
  });
}
