-- What the runs list filters, searches and charts on, kept in the row by Postgres itself:
-- generated columns read the run's recorded report and error, so every writer (the commit
-- functions, an import) keeps them right without knowing they exist, and a list query over
-- 10,000 runs filters on plain indexed columns instead of parsing JSON per row.
--
--   outcome          the report's outcome: succeeded | blocked | failed (null while running)
--   error_message    the run's error message (searched)
--   failed_at        where it failed (stagecraft_run_failed_at)
--   needs_attention  failed, aborted by a step (not on a user's request), or blocked
--   duration_ms      from start to end, once it has ended
--
-- The rules live in IMMUTABLE functions, named, so a generation expression stays one call. A
-- function changed by a later migration applies to rows written after it; that migration
-- recomputes older rows with `UPDATE "runs" SET "report" = "report"`.

-- Where a run failed: `<capability>/<stage>` for a failed stage; for a processor step that
-- aborted it, its position (`__post__/2`, `draft/pre/0`), or the report's failed_step.position
-- when the report names one.
CREATE FUNCTION stagecraft_run_failed_at(p_report json, p_error json) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(
    p_report -> 'failed_step' ->> 'position',
    (p_report -> 'failed_stage' ->> 'capability') || '/' || (p_report -> 'failed_stage' ->> 'stage'),
    CASE
      WHEN p_error ->> 'stepType' IS NOT NULL AND p_error ->> 'step' IS NOT NULL THEN
        CASE WHEN p_error ->> 'phase' = '__post__' THEN '__post__/' || (p_error ->> 'step')
             ELSE (p_error ->> 'phase') || '/pre/' || (p_error ->> 'step') END
    END,
    (p_error ->> 'capability') || '/' || (p_error ->> 'stage')
  )
$$;

-- Failed; or aborted or blocked, unless a user asked for the abort (abortRun records
-- `requestedBy: "user"` in the error).
CREATE FUNCTION stagecraft_run_needs_attention(p_status text, p_report json, p_error json) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(
    p_status = 'failed'
    OR ((p_status = 'aborted' OR p_report ->> 'outcome' = 'blocked') AND COALESCE(p_error ->> 'requestedBy', '') <> 'user'),
    false
  )
$$;

CREATE FUNCTION stagecraft_run_duration_ms(p_status text, p_created timestamptz, p_updated timestamptz) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN p_status NOT IN ('running', 'queued') THEN (EXTRACT(EPOCH FROM (p_updated - p_created)) * 1000)::double precision END
$$;

ALTER TABLE "runs"
  ADD COLUMN "outcome" TEXT GENERATED ALWAYS AS ("report" ->> 'outcome') STORED,
  ADD COLUMN "error_message" TEXT GENERATED ALWAYS AS ("error" ->> 'message') STORED,
  ADD COLUMN "failed_at" TEXT GENERATED ALWAYS AS (stagecraft_run_failed_at("report", "error")) STORED,
  ADD COLUMN "needs_attention" BOOLEAN NOT NULL GENERATED ALWAYS AS (stagecraft_run_needs_attention("status", "report", "error")) STORED,
  ADD COLUMN "duration_ms" DOUBLE PRECISION GENERATED ALWAYS AS (stagecraft_run_duration_ms("status", "created_at", "updated_at")) STORED;

-- keyset pages, newest first (ties in creation order), whole or narrowed by one filter
CREATE INDEX "runs_created_at_ord_idx" ON "runs" ("created_at" DESC, "ord");
CREATE INDEX "runs_outcome_created_at_idx" ON "runs" ("outcome", "created_at" DESC);
CREATE INDEX "runs_needs_attention_created_at_idx" ON "runs" ("needs_attention", "created_at" DESC);
CREATE INDEX "runs_failed_at_created_at_idx" ON "runs" ("failed_at", "created_at" DESC);
