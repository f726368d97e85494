-- A new run's first commit skips the two lookups every other commit makes: whether the run is
-- there (stagecraft_create_run has just inserted it, in this transaction) and the last seq of its
-- log (0: it has no events, since no event can be written for a run before its row, see
-- *_events_run_checked_at_seq_one, and the row was not there a moment ago: the function refused
-- an existing id with SC004). `stagecraft_commit` takes that last seq as an optional third
-- argument; without it (every other caller) it looks both up as before. The rest of both
-- functions is unchanged: the seq rules still judge the unit (a first unit that does not start
-- at 1 is still a gap, SC003), and the gap-free trigger and the events key still judge the rows.
--
-- Every commit also reads its unit's seqs one by one, as plpgsql's simple expressions, instead of
-- gathering them with a query (an aggregate with a sort, an executor started per commit): the
-- rules are the same, checked in the same order; only a conflict, which answers with what is
-- recorded at all of them, gathers them.
--
-- The two-argument function is dropped, not kept beside: a call with two arguments would be
-- ambiguous between it and the new one's default. Nothing outside these functions calls it.

DROP FUNCTION stagecraft_commit(text, jsonb);

CREATE FUNCTION stagecraft_commit(p_run_id text, p_unit jsonb, p_last int DEFAULT NULL) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_events jsonb := coalesce(p_unit -> 'events', '[]'::jsonb);
  v_snapshot jsonb := p_unit -> 'snapshot';
  v_run jsonb := p_unit -> 'run';
  v_n int := jsonb_array_length(coalesce(p_unit -> 'events', '[]'::jsonb));
  v_seqs int[];
  v_seq int;
  v_last int;
BEGIN
  IF p_last IS NULL THEN
    PERFORM 1 FROM "runs" WHERE "id" = p_run_id;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'no run % in the store', p_run_id USING ERRCODE = 'SC002';
    END IF;
  END IF;

  IF v_n > 0 THEN
    v_last := p_last;
    IF v_last IS NULL THEN
      SELECT coalesce(max("seq"), 0) INTO v_last FROM "events" WHERE "run_id" = p_run_id;
    END IF;
    -- the unit's event v_i (from 0) must be at v_last + 1 + v_i; read one by one as plpgsql's simple
    -- expressions, not gathered by a query: the unit's seqs are only all needed for a conflict
    FOR v_i IN 0 .. v_n - 1 LOOP
      v_seq := (v_events -> v_i ->> 'seq')::int;
      IF v_seq IS DISTINCT FROM v_last + 1 + v_i THEN
        IF v_seq <= v_last THEN
          SELECT array_agg((e ->> 'seq')::int ORDER BY o) INTO v_seqs
            FROM jsonb_array_elements(v_events) WITH ORDINALITY AS t(e, o);
          RETURN json_build_object('kind', 'conflict', 'recorded', (
            SELECT coalesce(json_agg(stagecraft_event_json(ev) ORDER BY u.i), '[]'::json)
              FROM unnest(v_seqs) WITH ORDINALITY AS u(seq, i)
              JOIN "events" ev ON ev."run_id" = p_run_id AND ev."seq" = u.seq));
        END IF;
        RAISE EXCEPTION 'seq gap in run %: expected %, got %', p_run_id, v_last + 1 + v_i, v_seq
          USING ERRCODE = 'SC003';
      END IF;
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
  v_result := stagecraft_commit(v_id, p_unit, 0);
  IF v_result ->> 'kind' <> 'committed' THEN
    RAISE EXCEPTION 'first commit of new run % conflicted', v_id;
  END IF;
  RETURN v_result;
END;
$$;
