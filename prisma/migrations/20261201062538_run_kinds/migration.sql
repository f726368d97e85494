-- What a run is: a run of a skill, a replay of a recorded run, or a fork of one
-- (lib/kernel/recording.ts). `parent_run_id` names the replayed or forked run (as
-- it names the caller of a run_skill child); `fork_point` is where a fork departs
-- from its parent. Runs recorded before this migration are runs.
--
-- The generated ALTER first; then, by hand, the CHECK on `kind` and
-- `stagecraft_create_run` taking the two new fields of the run record (wire.ts
-- sends the port's RunRecord, so `kind` and `forkPoint` are in it).

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "fork_point" TEXT,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'run';

ALTER TABLE "runs" ADD CONSTRAINT "runs_kind_check" CHECK ("kind" IN ('run', 'replay', 'fork'));

CREATE OR REPLACE FUNCTION stagecraft_create_run(p_run jsonb, p_unit jsonb) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_id text := p_run ->> 'id';
  v_result json;
BEGIN
  PERFORM 1 FROM "runs" WHERE "id" = v_id;
  IF FOUND THEN
    RAISE EXCEPTION 'run % exists', v_id USING ERRCODE = 'SC004';
  END IF;
  INSERT INTO "runs" ("id", "skill_name", "skill_hash", "skill_text", "bundle_dir", "skill_version_id",
                      "input", "model", "status", "output", "error", "report", "kind", "parent_run_id",
                      "fork_point", "created_at", "updated_at")
  SELECT r.id, r."skillName", r."skillHash", r."skillText", r."bundleDir", r."skillVersionId"::uuid,
         r.input::json, r.model, r.status, nullif(r.output, 'null')::json, nullif(r.error, 'null')::json,
         nullif(r.report, 'null')::json, coalesce(r.kind, 'run'), r."parentRunId", r."forkPoint",
         stagecraft_ms_to_ts(r."createdAt"), stagecraft_ms_to_ts(r."updatedAt")
    FROM jsonb_to_record(p_run) AS r(id text, "skillName" text, "skillHash" text, "skillText" text,
           "bundleDir" text, "skillVersionId" text, input text, model text, status text,
           output text, error text, report text, kind text, "parentRunId" text, "forkPoint" text,
           "createdAt" float8, "updatedAt" float8);
  v_result := stagecraft_commit(v_id, p_unit);
  IF v_result ->> 'kind' <> 'committed' THEN
    RAISE EXCEPTION 'first commit of new run % conflicted', v_id;
  END IF;
  RETURN v_result;
END;
$$;
