-- Hand-written: what Prisma does not model. `npm run db:check` ignores it.
--
-- The store's write path (lib/store/prisma-store.ts), as functions so that a
-- commit is one statement and one round trip: the unit arrives as one jsonb
-- parameter shaped like the kernel's CommitUnit (camelCase keys, epoch-ms
-- times) and every part of it lands in one implicit transaction, or none does.
--
-- Error codes (SQLSTATE), mapped to errors in lib/store/db-errors.ts:
--   SC001 events are append-only (see the previous migration)
--   SC002 no such run
--   SC003 seq gap: a programming error in the caller
--   SC004 run exists (createRun)

CREATE FUNCTION stagecraft_ms_to_ts(ms float8) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT to_timestamp(ms / 1000.0) $$;

CREATE FUNCTION stagecraft_ts_to_ms(ts timestamptz) RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT (extract(epoch FROM ts) * 1000)::float8 $$;

-- An event row as the port's RunEvent.
CREATE FUNCTION stagecraft_event_json(e "events") RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('runId', e.run_id, 'seq', e.seq, 'type', e.type,
                            'at', stagecraft_ts_to_ms(e.at), 'data', e.data)
$$;

-- Applies a CommitUnit to a run. Returns {"kind":"committed"}, or
-- {"kind":"conflict","recorded":[RunEvent...]} without applying anything when
-- one of its seqs is already recorded. The seq rules are MemoryStore's, step
-- for step: the unit's seqs must continue the log (last + 1, last + 2, …); the
-- first one that does not is a conflict if it is already recorded, else a gap.
-- Two writers racing past this check meet at the events primary key (23505);
-- the caller calls again and gets the conflict.
CREATE FUNCTION stagecraft_commit(p_run_id text, p_unit jsonb) RETURNS jsonb
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
          RETURN jsonb_build_object('kind', 'conflict', 'recorded', (
            SELECT coalesce(jsonb_agg(stagecraft_event_json(ev) ORDER BY u.i), '[]'::jsonb)
              FROM unnest(v_seqs) WITH ORDINALITY AS u(seq, i)
              JOIN "events" ev ON ev."run_id" = p_run_id AND ev."seq" = u.seq));
        END IF;
        RAISE EXCEPTION 'seq gap in run %: expected %, got %', p_run_id, v_expected, v_seq
          USING ERRCODE = 'SC003';
      END IF;
      v_expected := v_expected + 1;
    END LOOP;

    INSERT INTO "events" ("run_id", "seq", "type", "at", "data")
    SELECT p_run_id, x.seq, x.type, stagecraft_ms_to_ts(x.at), x.data
      FROM jsonb_to_recordset(v_events) AS x(seq int, type text, at float8, data jsonb);
  END IF;

  IF jsonb_array_length(coalesce(p_unit -> 'traces', '[]'::jsonb)) > 0 THEN
    INSERT INTO "stage_traces" ("id", "run_id", "seq", "round", "phase", "rung", "capability", "stage",
                                "status", "effects", "contribution", "not_applied", "error",
                                "started_at", "ended_at", "duration_ms")
    SELECT x.id, p_run_id, x.seq, x.round, x.phase, x.rung, x.capability, x.stage,
           x.status, x.effects, x.contribution, x."notApplied", x.error,
           stagecraft_ms_to_ts(x."startedAt"), stagecraft_ms_to_ts(x."endedAt"), x."durationMs"
      FROM ROWS FROM (jsonb_to_recordset(p_unit -> 'traces') AS (
             id text, seq int, round int, phase text, rung text, capability text, stage text,
             status text, effects jsonb, contribution jsonb, "notApplied" jsonb, error jsonb,
             "startedAt" float8, "endedAt" float8, "durationMs" float8))
           WITH ORDINALITY AS x(id, seq, round, phase, rung, capability, stage, status, effects,
                                contribution, "notApplied", error, "startedAt", "endedAt", "durationMs", i)
     ORDER BY x.i;
  END IF;

  IF jsonb_typeof(v_snapshot) = 'object' THEN
    INSERT INTO "snapshots" ("run_id", "current_phase", "seq", "data")
    VALUES (p_run_id, v_snapshot ->> 'currentPhase', (v_snapshot ->> 'seq')::int, v_snapshot -> 'data')
    ON CONFLICT ("run_id") DO UPDATE
      SET "current_phase" = EXCLUDED."current_phase", "seq" = EXCLUDED."seq", "data" = EXCLUDED."data";
  ELSIF v_snapshot = '"delete"'::jsonb THEN
    DELETE FROM "snapshots" WHERE "run_id" = p_run_id;
  END IF;

  -- Upsert by path. A path written twice in one unit: the last write wins, and
  -- a new path keeps the position of its first write (as a Map would).
  IF jsonb_array_length(coalesce(p_unit -> 'artifacts', '[]'::jsonb)) > 0 THEN
    INSERT INTO "workspace_artifacts" ("run_id", "path", "content", "sha256", "size", "created_at")
    SELECT p_run_id, a.path, coalesce(a.content, 'null'::jsonb), a.sha256, a.size, stagecraft_ms_to_ts(a."createdAt")
      FROM (SELECT DISTINCT ON (x.path) x.*, min(x.i) OVER (PARTITION BY x.path) AS first_i
              FROM ROWS FROM (jsonb_to_recordset(p_unit -> 'artifacts') AS (
                     path text, content jsonb, sha256 text, size int, "createdAt" float8))
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
      "output"     = CASE WHEN v_run ? 'output' THEN nullif(v_run -> 'output', 'null'::jsonb) ELSE "output" END,
      "error"      = CASE WHEN v_run ? 'error' THEN nullif(v_run -> 'error', 'null'::jsonb) ELSE "error" END,
      "report"     = CASE WHEN v_run ? 'report' THEN nullif(v_run -> 'report', 'null'::jsonb) ELSE "report" END,
      "updated_at" = CASE WHEN v_run ? 'updatedAt'
                          THEN stagecraft_ms_to_ts((v_run ->> 'updatedAt')::float8) ELSE "updated_at" END
     WHERE "id" = p_run_id;
  END IF;

  RETURN '{"kind":"committed"}'::jsonb;
END;
$$;

-- Inserts a RunRecord and commits its first unit, in one transaction.
CREATE FUNCTION stagecraft_create_run(p_run jsonb, p_unit jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_id text := p_run ->> 'id';
  v_result jsonb;
BEGIN
  PERFORM 1 FROM "runs" WHERE "id" = v_id;
  IF FOUND THEN
    RAISE EXCEPTION 'run % exists', v_id USING ERRCODE = 'SC004';
  END IF;
  INSERT INTO "runs" ("id", "skill_name", "skill_hash", "skill_text", "bundle_dir", "skill_version_id",
                      "input", "model", "status", "output", "error", "report", "parent_run_id",
                      "created_at", "updated_at")
  SELECT r.id, r."skillName", r."skillHash", r."skillText", r."bundleDir", r."skillVersionId"::uuid,
         r.input, r.model, r.status, r.output, r.error, r.report, r."parentRunId",
         stagecraft_ms_to_ts(r."createdAt"), stagecraft_ms_to_ts(r."updatedAt")
    FROM jsonb_to_record(p_run) AS r(id text, "skillName" text, "skillHash" text, "skillText" text,
           "bundleDir" text, "skillVersionId" text, input jsonb, model text, status text,
           output jsonb, error jsonb, report jsonb, "parentRunId" text,
           "createdAt" float8, "updatedAt" float8);
  v_result := stagecraft_commit(v_id, p_unit);
  IF v_result ->> 'kind' <> 'committed' THEN
    RAISE EXCEPTION 'first commit of new run % conflicted', v_id;
  END IF;
  RETURN v_result;
END;
$$;
