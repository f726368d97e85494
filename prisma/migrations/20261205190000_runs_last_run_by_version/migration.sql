-- Hand-written in part: the index's WHERE is what Prisma does not model (see *_runs_sparse_indexes).
--
-- The skills list (the home page, /runs, GET /api/skills, a skill's page) shows each skill's last
-- run: the newest run of any of its versions (lib/store/skills.ts). Its query walked all runs
-- newest first (`runs_created_at_ord_idx`) until one of the skill's turned up: for a skill that
-- rarely runs every run of the others since, and for a skill that never ran (a new one) or last
-- ran long ago, every run in the store. 100k runs over 10 skills (lib/store/testing/fill-runs.ts;
-- one never ran, one last ran 80 days ago): the list took 138 ms on Postgres 15 and 523 ms on the
-- embedded PGlite (medians of 10), and grew with the store.
--
-- `runs_skill_version_id_idx` now holds each run under its version and, within it, newest first
-- (created_at DESC, ord DESC, the last run's order): the query takes, for each version of the
-- skill, its newest run (one index probe, LIMIT 1), and the newest of those. Its cost is one probe
-- per version, whatever the number of runs. Same name and rows as before (the runs that name a
-- version); its leading column still answers the foreign key's ON DELETE SET NULL
-- (`skill_version_id = $1`, runs-indexes.db.test.ts). No index is added: a run writes as many
-- entries as before, each 16 bytes wider. Now 1.6 ms and 9 ms. Writing 10k runs at 100k (insert,
-- then their end's update): 466 vs 457 ms and 616 vs 677 ms, medians of 10 pairs, 6/10 each way.
--
-- And it holds only the runs that name a skill version (WHERE skill_version_id IS NOT NULL). A run
-- started from a skill folder, a bundle or a bench (`stagecraft run ./dir`, startRun without a saved
-- version) has none, and each of its two writes (its creation, and its end's update, never a HOT
-- update) put a NULL entry in the index that no query reads: every query of the column asks for a
-- value — the foreign key's ON DELETE SET NULL of a skill version (`skill_version_id = $1`), and the
-- skills list's last run (`r.skill_version_id = rv.id`) — and the planner proves that such a strict
-- comparison implies IS NOT NULL, in a generic plan too (runs-indexes.db.test.ts). As
-- *_runs_sparse_indexes did for four others.

DROP INDEX "runs_skill_version_id_idx";
CREATE INDEX "runs_skill_version_id_idx" ON "runs" ("skill_version_id", "created_at" DESC, "ord" DESC) WHERE "skill_version_id" IS NOT NULL;
