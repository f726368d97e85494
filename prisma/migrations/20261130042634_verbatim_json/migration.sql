-- Recorded JSON is stored verbatim: `json` instead of `jsonb`.
--
-- jsonb normalises what it stores: it re-orders object keys (by length, then
-- bytes) and refuses NUL characters (\u0000). The kernel turns recorded values
-- back into text -- a tool's recorded outcome becomes the transcript the model
-- is sent on resume -- and that text is part of the next model step's memo
-- key. A re-ordered value read back from jsonb is a different key: a memo miss,
-- and a model round paid twice. `json` keeps the text as written, so values
-- read back exactly as they were committed (as MemoryStore returns them), and
-- a NUL in a tool's output no longer fails the commit.
--
-- The generated ALTERs are in the middle; around them, by hand: the CHECKs on
-- the data columns (written for jsonb) and the commit functions, which now take
-- each JSON payload as a JSON-encoded string inside the unit (see
-- lib/store/wire.ts): the SQL never parses a payload, it only casts the text to
-- json, so nothing in it is re-ordered or de-escaped. Error codes are unchanged
-- (SC001-SC004, see *_commit_functions; mapped in lib/store/errors.ts).

ALTER TABLE "events" DROP CONSTRAINT "events_data_check";
ALTER TABLE "snapshots" DROP CONSTRAINT "snapshots_data_check";

-- AlterTable
ALTER TABLE "events" ALTER COLUMN "data" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "runs" ALTER COLUMN "input" SET DATA TYPE JSON,
ALTER COLUMN "output" SET DATA TYPE JSON,
ALTER COLUMN "error" SET DATA TYPE JSON,
ALTER COLUMN "report" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "snapshots" ALTER COLUMN "data" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "stage_traces" ALTER COLUMN "effects" SET DATA TYPE JSON,
ALTER COLUMN "contribution" SET DATA TYPE JSON,
ALTER COLUMN "not_applied" SET DATA TYPE JSON,
ALTER COLUMN "error" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "workspace_artifacts" ALTER COLUMN "content" SET DATA TYPE JSON;

ALTER TABLE "events" ADD CONSTRAINT "events_data_check" CHECK (json_typeof("data") = 'object');
ALTER TABLE "snapshots" ADD CONSTRAINT "snapshots_data_check" CHECK (json_typeof("data") = 'object');

DROP FUNCTION stagecraft_create_run(jsonb, jsonb);
DROP FUNCTION stagecraft_commit(text, jsonb);
DROP FUNCTION stagecraft_event_json("events");

-- An event row as the port's RunEvent, its data verbatim.
CREATE FUNCTION stagecraft_event_json(e "events") RETURNS json
LANGUAGE sql STABLE AS $$
  SELECT json_build_object('runId', e.run_id, 'seq', e.seq, 'type', e.type,
                           'at', stagecraft_ts_to_ms(e.at), 'data', e.data)
$$;

-- Applies a unit to a run, in the wire shape of lib/store/wire.ts (the
-- CommitUnit with every JSON payload as a JSON-encoded string). Returns
-- {"kind":"committed"}, or {"kind":"conflict","recorded":[RunEvent...]} without
-- applying anything when one of its seqs is already recorded. The seq rules are
-- MemoryStore's, step for step: the unit's seqs must continue the log (last + 1,
-- last + 2, ...); the first that does not is a conflict if it is already
-- recorded, else a gap (SC003). Two writers racing past this check meet at the
-- events primary key (23505); the caller calls again and gets the conflict.
CREATE FUNCTION stagecraft_commit(p_run_id text, p_unit jsonb) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_events jsonb := coalesce(p_unit -> 'events', '[]'::jsonb);
  v_snapshot jsonb := p_unit -> 'snapshot';
  v_run jsonb := p_unit -> 'run';
  v_seqs int[];
  v_seq int;
  v_last int;
  v_expected int;
BEGIN
  PERFORM 1 FROM "runs" WHERE "id" = p_run_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no run % in the store', p_run_id USING ERRCODE = 'SC002';
  END IF;

  IF jsonb_array_length(v_events) > 0 THEN
    SELECT array_agg((e ->> 'seq')::int ORDER BY i) INTO v_seqs
      FROM jsonb_array_elements(v_events) WITH ORDINALITY AS t(e, i);
    SELECT coalesce(max("seq"), 0) INTO v_last FROM "events" WHERE "run_id" = p_run_id;
    v_expected := v_last + 1;
    FOREACH v_seq IN ARRAY v_seqs LOOP
      IF v_seq IS DISTINCT FROM v_expected THEN
        IF v_seq <= v_last THEN
          RETURN json_build_object('kind', 'conflict', 'recorded', (
            SELECT coalesce(json_agg(stagecraft_event_json(ev) ORDER BY u.i), '[]'::json)
              FROM unnest(v_seqs) WITH ORDINALITY AS u(seq, i)
              JOIN "events" ev ON ev."run_id" = p_run_id AND ev."seq" = u.seq));
        END IF;
        RAISE EXCEPTION 'seq gap in run %: expected %, got %', p_run_id, v_expected, v_seq
          USING ERRCODE = 'SC003';
      END IF;
      v_expected := v_expected + 1;
    END LOOP;

    INSERT INTO "events" ("run_id", "seq", "type", "at", "data")
    SELECT p_run_id, x.seq, x.type, stagecraft_ms_to_ts(x.at), x.data::json
      FROM jsonb_to_recordset(v_events) AS x(seq int, type text, at float8, data text);
  END IF;

  IF jsonb_array_length(coalesce(p_unit -> 'traces', '[]'::jsonb)) > 0 THEN
    INSERT INTO "stage_traces" ("id", "run_id", "seq", "round", "phase", "rung", "capability", "stage",
                                "status", "effects", "contribution", "not_applied", "error",
                                "started_at", "ended_at", "duration_ms")
    SELECT x.id, p_run_id, x.seq, x.round, x.phase, x.rung, x.capability, x.stage,
           x.status, x.effects::json, nullif(x.contribution, 'null')::json, x."notApplied"::json,
           nullif(x.error, 'null')::json,
           stagecraft_ms_to_ts(x."startedAt"), stagecraft_ms_to_ts(x."endedAt"), x."durationMs"
      FROM ROWS FROM (jsonb_to_recordset(p_unit -> 'traces') AS (
             id text, seq int, round int, phase text, rung text, capability text, stage text,
             status text, effects text, contribution text, "notApplied" text, error text,
             "startedAt" float8, "endedAt" float8, "durationMs" float8))
           WITH ORDINALITY AS x(id, seq, round, phase, rung, capability, stage, status, effects,
                                contribution, "notApplied", error, "startedAt", "endedAt", "durationMs", i)
     ORDER BY x.i;
  END IF;

  IF jsonb_typeof(v_snapshot) = 'object' THEN
    INSERT INTO "snapshots" ("run_id", "current_phase", "seq", "data")
    VALUES (p_run_id, v_snapshot ->> 'currentPhase', (v_snapshot ->> 'seq')::int, (v_snapshot ->> 'data')::json)
    ON CONFLICT ("run_id") DO UPDATE
      SET "current_phase" = EXCLUDED."current_phase", "seq" = EXCLUDED."seq", "data" = EXCLUDED."data";
  ELSIF v_snapshot = '"delete"'::jsonb THEN
    DELETE FROM "snapshots" WHERE "run_id" = p_run_id;
  END IF;

  -- Upsert by path. A path written twice in one unit: the last write wins, and
  -- a new path keeps the position of its first write (as a Map would).
  IF jsonb_array_length(coalesce(p_unit -> 'artifacts', '[]'::jsonb)) > 0 THEN
    INSERT INTO "workspace_artifacts" ("run_id", "path", "content", "sha256", "size", "created_at")
    SELECT p_run_id, a.path, a.content::json, a.sha256, a.size, stagecraft_ms_to_ts(a."createdAt")
      FROM (SELECT DISTINCT ON (x.path) x.*, min(x.i) OVER (PARTITION BY x.path) AS first_i
              FROM ROWS FROM (jsonb_to_recordset(p_unit -> 'artifacts') AS (
                     path text, content text, sha256 text, size int, "createdAt" float8))
                   WITH ORDINALITY AS x(path, content, sha256, size, "createdAt", i)
             ORDER BY x.path, x.i DESC) a
     ORDER BY a.first_i
    ON CONFLICT ("run_id", "path") DO UPDATE
      SET "content" = EXCLUDED."content", "sha256" = EXCLUDED."sha256",
          "size" = EXCLUDED."size", "created_at" = EXCLUDED."created_at";
  END IF;

  -- Only the keys present are set; a JSON null output/error/report is stored as NULL.
  IF jsonb_typeof(v_run) = 'object' AND v_run <> '{}'::jsonb THEN
    UPDATE "runs" SET
      "status"     = CASE WHEN v_run ? 'status' THEN v_run ->> 'status' ELSE "status" END,
      "output"     = CASE WHEN v_run ? 'output' THEN nullif(v_run ->> 'output', 'null')::json ELSE "output" END,
      "error"      = CASE WHEN v_run ? 'error' THEN nullif(v_run ->> 'error', 'null')::json ELSE "error" END,
      "report"     = CASE WHEN v_run ? 'report' THEN nullif(v_run ->> 'report', 'null')::json ELSE "report" END,
      "updated_at" = CASE WHEN v_run ? 'updatedAt'
                          THEN stagecraft_ms_to_ts((v_run ->> 'updatedAt')::float8) ELSE "updated_at" END
     WHERE "id" = p_run_id;
  END IF;

  RETURN '{"kind":"committed"}'::json;
END;
$$;

-- Inserts a RunRecord (wire shape) and commits its first unit, in one transaction.
CREATE FUNCTION stagecraft_create_run(p_run jsonb, p_unit jsonb) RETURNS json
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
                      "input", "model", "status", "output", "error", "report", "parent_run_id",
                      "created_at", "updated_at")
  SELECT r.id, r."skillName", r."skillHash", r."skillText", r."bundleDir", r."skillVersionId"::uuid,
         r.input::json, r.model, r.status, nullif(r.output, 'null')::json, nullif(r.error, 'null')::json,
         nullif(r.report, 'null')::json, r."parentRunId",
         stagecraft_ms_to_ts(r."createdAt"), stagecraft_ms_to_ts(r."updatedAt")
    FROM jsonb_to_record(p_run) AS r(id text, "skillName" text, "skillHash" text, "skillText" text,
           "bundleDir" text, "skillVersionId" text, input text, model text, status text,
           output text, error text, report text, "parentRunId" text,
           "createdAt" float8, "updatedAt" float8);
  v_result := stagecraft_commit(v_id, p_unit);
  IF v_result ->> 'kind' <> 'committed' THEN
    RAISE EXCEPTION 'first commit of new run % conflicted', v_id;
  END IF;
  RETURN v_result;
END;
$$;
