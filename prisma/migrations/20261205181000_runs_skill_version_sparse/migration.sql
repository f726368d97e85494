-- Hand-written: what Prisma does not model (see *_runs_sparse_indexes).
--
-- `runs_skill_version_id_idx` holds only the runs that name a skill version. A run started from a
-- skill folder, a bundle or a bench (`stagecraft run ./dir`, startRun without a saved version) has
-- none, and each of its two writes (its creation, and its end's update, never a HOT update) put a
-- NULL entry in the index that no query reads: every query of the column asks for a value — the
-- foreign key's ON DELETE SET NULL of a skill version (`skill_version_id = $1`), and the skills
-- list's last run joins on it (`rv.id = r.skill_version_id`) — and the planner proves that such a
-- strict comparison implies IS NOT NULL, in a generic plan too (runs-indexes.db.test.ts).
-- A run that names a version writes its entries as before.

DROP INDEX "runs_skill_version_id_idx";
CREATE INDEX "runs_skill_version_id_idx" ON "runs" ("skill_version_id") WHERE "skill_version_id" IS NOT NULL;
