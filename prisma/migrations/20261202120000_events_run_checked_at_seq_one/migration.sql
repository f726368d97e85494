-- An event's run is checked once per run, at its first event, instead of by a foreign key on
-- every event. The key's check was a query per inserted row that also locked the run's row
-- (FOR KEY SHARE: a WAL record and a dirtied page of "runs" at every step's commit). Measured
-- with EXPLAIN ANALYZE, one event per transaction: 0.07–0.2 ms of an event INSERT's 0.15–0.4 ms;
-- in a loop of 5,000 one-event transactions inside one DO block (no round trips, no fsync):
-- 61–70 -> 36–41 µs an event, 395 -> 338 WAL bytes a transaction.
--
-- What it guaranteed still holds — no event of a run that is not in "runs":
-- - an event at seq 1 needs its run (the gap-free statement trigger now checks it, in the same
--   anti-join that checks every other event's predecessor);
-- - an event at seq n > 1 needs the event at n - 1 of its run (as before), so by induction its
--   run's seq 1, which needed the run;
-- - and a run, once there, stays: a run row is never deleted, nor its id changed (the foreign
--   key's RESTRICT refused that for every run with events; every run has events from the
--   statement that creates it, stagecraft_create_run). A trigger now refuses both for every
--   run, which needs no lock on the run's row: what a writer saw there cannot go away. TRUNCATE
--   of "runs" is refused by the other tables' foreign keys, or, with CASCADE, by the events'
--   no-truncate trigger; a trigger of its own refuses it too, so that stays true whatever the
--   other tables become.
--
-- The trigger also tests first and sorts only to name a refusal: the statement it ran for every
-- INSERT (a sort and a limit over the inserted rows) was 2-3% of the commit lane's backend CPU
-- (perf, 200 x 5 effectful runs).
--
-- What differs, for a writer other than the store (psql): an event of an unknown run is
-- refused with SC002 ("no run … in the store", the commit functions' code and message) instead
-- of 23503; a DELETE of a run with 23503 and a message of its own instead of the key's. The
-- store's own paths answer as before: the commit functions check the run first (SC002), and a
-- direct write the trigger refuses is sent again through them (lib/store/commit-lanes.ts).

ALTER TABLE "events" DROP CONSTRAINT "events_run_id_fkey";

CREATE OR REPLACE FUNCTION stagecraft_require_gap_free_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_run text;
  v_seq int;
BEGIN
  -- every row continues its log, the common case: one test, without the sort that names a refusal
  IF NOT EXISTS (SELECT 1 FROM "inserted" n
                  WHERE CASE WHEN n."seq" = 1
                             THEN NOT EXISTS (SELECT 1 FROM "runs" r WHERE r."id" = n."run_id")
                             ELSE NOT EXISTS (SELECT 1 FROM "events" e WHERE e."run_id" = n."run_id" AND e."seq" = n."seq" - 1) END) THEN
    RETURN NULL;
  END IF;
  SELECT n."run_id", n."seq" INTO v_run, v_seq
    FROM "inserted" n
   WHERE CASE WHEN n."seq" = 1
              THEN NOT EXISTS (SELECT 1 FROM "runs" r WHERE r."id" = n."run_id")
              ELSE NOT EXISTS (SELECT 1 FROM "events" e WHERE e."run_id" = n."run_id" AND e."seq" = n."seq" - 1) END
   ORDER BY n."run_id", n."seq"
   LIMIT 1;
  IF FOUND THEN
    -- an unknown run is named as such, whatever its seq (only now, on the refusal, is it looked up)
    IF v_seq = 1 OR NOT EXISTS (SELECT 1 FROM "runs" r WHERE r."id" = v_run) THEN
      RAISE EXCEPTION 'no run % in the store', v_run
        USING ERRCODE = 'SC002',
              HINT = 'An event belongs to a run: create the run (its first event with it) before appending.';
    END IF;
    RAISE EXCEPTION 'event % of run % does not continue its log: there is no event %', v_seq, v_run, v_seq - 1
      USING ERRCODE = 'SC003',
            HINT = 'A run''s events are numbered 1, 2, 3 … without gaps; append at the next seq.';
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION stagecraft_refuse_run_removal() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    RAISE EXCEPTION 'runs are kept: TRUNCATE of "runs" refused'
      USING ERRCODE = '23503', HINT = 'A run is kept with its append-only events.';
  END IF;
  RAISE EXCEPTION 'runs are kept: % of run % refused', TG_OP, OLD."id"
    USING ERRCODE = '23503',
          HINT = 'A run is kept with its append-only events; its id never changes.';
END;
$$;

CREATE TRIGGER "runs_kept"
  BEFORE DELETE ON "runs"
  FOR EACH ROW EXECUTE FUNCTION stagecraft_refuse_run_removal();

CREATE TRIGGER "runs_id_kept"
  BEFORE UPDATE OF "id" ON "runs"
  FOR EACH ROW WHEN (OLD."id" IS DISTINCT FROM NEW."id") EXECUTE FUNCTION stagecraft_refuse_run_removal();

CREATE TRIGGER "runs_no_truncate"
  BEFORE TRUNCATE ON "runs"
  FOR EACH STATEMENT EXECUTE FUNCTION stagecraft_refuse_run_removal();
