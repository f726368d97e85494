-- The indexes of "runs" over columns most runs leave empty hold only the runs that fill them.
-- A run's row is written twice (its creation, and its end's update, which changes the indexed
-- status and is never a HOT update), and each write puts an entry in every index of the table:
-- nine of them. Four index a column that is null or false for most rows, and every query
-- that uses them asks for a value (lib/store/run-index.ts, prisma-store.ts listRuns, skills.ts):
--
--   runs_outcome_created_at_idx          outcome = ANY(…)      null until a run ends
--   runs_failed_at_created_at_idx        failed_at = …          null unless it failed
--   runs_needs_attention_created_at_idx  needs_attention = true only the runs to look at
--   runs_parent_run_id_idx               parent_run_id = …      null but for replays, forks, children
--
-- As partial indexes (WHERE the column holds a value), a run that succeeds writes five index
-- entries at its creation instead of nine, and six at its end instead of nine. A query for a
-- value is answered by them as before (the planner proves `col = v` implies `col IS NOT NULL`);
-- a query for needs_attention = false, or parent_run_id IS NULL, matches most runs and reads
-- the created_at order instead, as it would have. `skill_version_id` keeps its full index: it
-- is set on every run the app and the CLI start, and ON DELETE SET NULL of a skill version
-- looks its runs up by it.
--
-- Prisma's schema has no partial indexes: schema.prisma still declares these four over the
-- same columns, and `db:check` compares names and columns, so the two agree.

DROP INDEX "runs_outcome_created_at_idx";
CREATE INDEX "runs_outcome_created_at_idx" ON "runs" ("outcome", "created_at" DESC) WHERE "outcome" IS NOT NULL;

DROP INDEX "runs_failed_at_created_at_idx";
CREATE INDEX "runs_failed_at_created_at_idx" ON "runs" ("failed_at", "created_at" DESC) WHERE "failed_at" IS NOT NULL;

DROP INDEX "runs_needs_attention_created_at_idx";
CREATE INDEX "runs_needs_attention_created_at_idx" ON "runs" ("needs_attention", "created_at" DESC) WHERE "needs_attention";

DROP INDEX "runs_parent_run_id_idx";
CREATE INDEX "runs_parent_run_id_idx" ON "runs" ("parent_run_id") WHERE "parent_run_id" IS NOT NULL;
