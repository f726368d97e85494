-- Hand-written: what Prisma does not model. `npm run db:check` ignores it.
--
-- Where a run failed (the runs list's "Failed at", its filter and its failure points) for a run
-- that stopped in a phase with no stage or step to blame: the model contract refused the phase's
-- finish after its retry (`output_invalid`), its max_rounds ran out, or a contract aborted it.
-- Its error names the phase only, so the column was null and the list said "No failures" though
-- the run failed. Such a run is now counted at its phase (`draft`; `__post__` for the caller's
-- contract), or at the position its error names (a model script with no turn left:
-- `summarize/r3/model`), where its page's "Rerun from here" takes it on. An abort someone asked for names the
-- phase it stopped in too, but nothing of it failed: it stays null.
--
-- Same name, arguments and result: the column keeps its expression; the rows this changes are
-- recomputed below (an UPDATE recomputes a stored generated column).

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
    (p_error ->> 'capability') || '/' || (p_error ->> 'stage'),
    CASE
      WHEN p_error ->> 'requestedBy' IS NULL
       AND COALESCE(p_report -> 'aborted_by' ->> 'by', '') <> 'request'
       AND COALESCE(p_error ->> 'message', '') NOT LIKE 'aborted on request%'
      THEN COALESCE(p_error ->> 'position', p_error ->> 'phase')
    END
  );
END;
$$;

UPDATE "runs" SET "report" = "report" WHERE "failed_at" IS NULL AND ("error" ->> 'phase' IS NOT NULL OR "error" ->> 'position' IS NOT NULL);
