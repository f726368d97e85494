-- Hand-written: what Prisma does not model. `npm run db:check` ignores it.
--
-- The generated columns of "runs" read a run's report once where they read it up to six times.
-- Each `json -> key` parses the whole report's text again (json is text; the operator walks it to
-- find the key), and a run's end computed `outcome` (one walk), `needs_attention` (one, for the
-- outcome 'blocked') and `failed_at` (four: failed_step, failed_stage twice, aborted_by) from it —
-- though the report of a run that ended well holds none of what failed_at and needs_attention look
-- for: its failed_step, failed_stage and aborted_by are null, its outcome is not 'blocked'.
--
-- Now each lookup first asks whether the report's text holds the key it reads (`"position"`,
-- `"capability"`, `"by"`) or the value it compares with (`"blocked"`), a substring search, and walks
-- the report only when it does: a key or value the text does not hold cannot be found by walking it,
-- so the lookup is null (or false) as before. A key can only be spelled otherwise with a \u escape:
-- a report with one anywhere is walked as before. And the last rule of failed_at (a run stopped in a
-- phase) reads the report only when the run has an error, as its answer is null without one.
--
-- Same names, arguments and results, and the same answer for every report and error: the columns
-- keep their expressions and every row its values; nothing is recomputed.

CREATE OR REPLACE FUNCTION stagecraft_run_failed_at(p_report json, p_error json) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  t text := p_report::text;
  escaped boolean := strpos(t, E'\\u') > 0;
BEGIN
  RETURN COALESCE(
    CASE WHEN escaped OR strpos(t, '"position"') > 0 THEN p_report -> 'failed_step' ->> 'position' END,
    CASE WHEN escaped OR strpos(t, '"capability"') > 0 THEN
      (p_report -> 'failed_stage' ->> 'capability') || '/' || (p_report -> 'failed_stage' ->> 'stage')
    END,
    CASE
      WHEN p_error ->> 'stepType' IS NOT NULL AND p_error ->> 'step' IS NOT NULL THEN
        CASE WHEN p_error ->> 'phase' = '__post__' THEN '__post__/' || (p_error ->> 'step')
             ELSE (p_error ->> 'phase') || '/pre/' || (p_error ->> 'step') END
    END,
    (p_error ->> 'capability') || '/' || (p_error ->> 'stage'),
    CASE
      WHEN p_error IS NOT NULL
       AND p_error ->> 'requestedBy' IS NULL
       AND COALESCE(CASE WHEN escaped OR strpos(t, '"by"') > 0 THEN p_report -> 'aborted_by' ->> 'by' END, '') <> 'request'
       AND COALESCE(p_error ->> 'message', '') NOT LIKE 'aborted on request%'
      THEN COALESCE(p_error ->> 'position', p_error ->> 'phase')
    END
  );
END;
$$;

CREATE OR REPLACE FUNCTION stagecraft_run_needs_attention(p_status text, p_report json, p_error json) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  t text := p_report::text;
BEGIN
  RETURN COALESCE(
    p_status = 'failed'
    OR ((p_status = 'aborted'
         OR CASE WHEN strpos(t, '"blocked"') > 0 OR strpos(t, E'\\u') > 0 THEN p_report ->> 'outcome' = 'blocked' END)
        AND COALESCE(p_error ->> 'requestedBy', '') <> 'user'),
    false
  );
END;
$$;
