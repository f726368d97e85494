-- The rules of the generated columns of "runs" (*_run_inspector_index) as plpgsql functions,
-- not SQL ones: same names, arguments and results, so the columns and every row keep their
-- values and nothing is recomputed.
--
-- Why: Postgres plans a table's generation expressions again for every statement that inserts
-- or updates its rows (ExecInitStoredGenerated), and planning inlines a SQL function: it parses,
-- analyses and rewrites the function's body text each time. A run's row is written twice (its
-- creation and its end), each time paying that for three functions: profiled (perf) on a loop of
-- creations and ends through stagecraft_apply, the generation expressions' planning was 22% of
-- the server's CPU. A plpgsql function is not inlined: it is compiled once per connection and its
-- expression's plan is kept, so a call costs a function call.

CREATE OR REPLACE FUNCTION stagecraft_run_failed_at(p_report json, p_error json) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN COALESCE(
    p_report -> 'failed_step' ->> 'position',
    (p_report -> 'failed_stage' ->> 'capability') || '/' || (p_report -> 'failed_stage' ->> 'stage'),
    CASE
      WHEN p_error ->> 'stepType' IS NOT NULL AND p_error ->> 'step' IS NOT NULL THEN
        CASE WHEN p_error ->> 'phase' = '__post__' THEN '__post__/' || (p_error ->> 'step')
             ELSE (p_error ->> 'phase') || '/pre/' || (p_error ->> 'step') END
    END,
    (p_error ->> 'capability') || '/' || (p_error ->> 'stage')
  );
END;
$$;

CREATE OR REPLACE FUNCTION stagecraft_run_needs_attention(p_status text, p_report json, p_error json) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN COALESCE(
    p_status = 'failed'
    OR ((p_status = 'aborted' OR p_report ->> 'outcome' = 'blocked') AND COALESCE(p_error ->> 'requestedBy', '') <> 'user'),
    false
  );
END;
$$;

CREATE OR REPLACE FUNCTION stagecraft_run_duration_ms(p_status text, p_created timestamptz, p_updated timestamptz) RETURNS double precision
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN CASE WHEN p_status NOT IN ('running', 'queued') THEN (EXTRACT(EPOCH FROM (p_updated - p_created)) * 1000)::double precision END;
END;
$$;
