// The skills list's last run of each skill (skills.ts skillListSql) costs a probe per version of the
// skill, however many runs the store holds: it reads the newest run of each version from
// runs_skill_version_id_idx (*_runs_last_run_by_version), never walks the runs newest first until
// one of the skill's turns up (which, for a skill that never ran or last ran long ago, was every
// run in the store) — in the plan a prepared statement keeps (a generic one) and in the answer's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OpenedStore } from './open-store';
import { skillListSql } from './skills';
import { bothBackends } from './testing/both-backends';
import { fillRuns, fillSkillNames } from './testing/fill-runs';

const RUNS = 3000;
const names = fillSkillNames();
const planText = (rows: Record<string, string>[]) => rows.map((r) => Object.values(r)[0]).join('\n');
/** the plan's lines that read "runs" */
const runsScans = (plan: string) => plan.split('\n').filter((l) => / on runs\b/.test(l));

for (const [name, open] of bothBackends()) {
  describe(`the skills list's last run on ${name}`, () => {
    let store: OpenedStore;
    before(async () => {
      store = await open();
      const db = await store.db();
      await fillRuns((sql, ...values) => db.$executeRawUnsafe(sql, ...values), { runs: RUNS });
    });
    after(() => store.close());

    it('is the newest run of any version of the skill; none for a skill that never ran', async () => {
      const want = await (await store.db()).$queryRawUnsafe<{ name: string; id: string }[]>(
        `SELECT DISTINCT ON (s."id") s."name", r."id" FROM "skills" s JOIN "skill_versions" v ON v."skill_id" = s."id" JOIN "runs" r ON r."skill_version_id" = v."id"
          ORDER BY s."id", r."created_at" DESC, r."ord" DESC`,
      );
      const got = await store.skills.listSkills();
      assert.deepEqual(got.map((s) => s.name), names);
      assert.deepEqual(
        Object.fromEntries(got.map((s) => [s.name, s.lastRun?.id ?? null])),
        Object.fromEntries(names.map((n) => [n, want.find((w) => w.name === n)?.id ?? null])),
      );
      assert.equal(got[names.length - 1].lastRun, null);
      assert.equal((await store.skills.getSkill(names[0]))?.lastRun?.id, got[0].lastRun?.id);
    });

    it('reads one run per version of each skill (EXPLAIN ANALYZE of the list)', async () => {
      const plan = planText(await (await store.db()).$queryRawUnsafe(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${skillListSql('')}`));
      const scans = runsScans(plan);
      assert.ok(scans.length > 0, plan);
      // (and for a last run that needs attention on its own, whether a fork down its chain took it on: run-index.ts TAKEN_ON_OF_SQL)
      for (const scan of scans.filter((s) => !/runs_parent_run_id_idx/.test(s))) {
        assert.match(scan, /Index Scan using runs_skill_version_id_idx on runs/, plan);
        // per loop (a version): its newest run, or none (Postgres 17 and PGlite say the mean: 0.88)
        assert.ok(Number(/actual rows=([\d.]+)/.exec(scan)?.[1]) <= 1, plan);
      }
    });

    it('probes runs_skill_version_id_idx by version in a generic plan (a skill\'s page: getSkill)', async () => {
      // one connection: a prepared statement and a setting are its session's
      const plan = await (await store.db()).$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`PREPARE skill_named(text) AS ${skillListSql('AND s."name" = $1')}`);
        await tx.$executeRawUnsafe(`SET LOCAL plan_cache_mode = force_generic_plan`);
        const rows = await tx.$queryRawUnsafe<Record<string, string>[]>(`EXPLAIN (COSTS OFF) EXECUTE skill_named('${names[names.length - 1]}')`);
        await tx.$executeRawUnsafe(`DEALLOCATE skill_named`);
        return planText(rows);
      });
      const scans = runsScans(plan);
      assert.ok(scans.length > 0, plan);
      for (const scan of scans.filter((s) => !/runs_parent_run_id_idx/.test(s))) assert.match(scan, /Index Scan using runs_skill_version_id_idx on runs/, plan);
      assert.match(plan, /Index Cond: \(skill_version_id = rv\.id\)/);
    });
  });
}
