-- Hand-written: what Prisma does not model. `npm run db:check` ignores it.
--
-- The two CHECKs of "events" become part of the gap-free statement trigger's one query: an
-- event's seq is at least 1 (events_seq_check) and its data a JSON object (events_data_check).
--
-- Why: Postgres reads and prepares a table's CHECK expressions anew for every statement that
-- writes it (ExecRelCheck: stringToNode and ExecPrepareExpr of each, per executor), while the
-- trigger's query is planned once per connection. Profiled (perf) on the commit lane's backend,
-- 3,000 effectful steps: the CHECKs were 5% of its CPU (the trigger 18%, the WAL flush 29%).
-- Measured on "events" in a loop of 4,000 one-event INSERTs (a 555-byte step_completed event)
-- in one DO block, backend CPU from /proc/<pid>/schedstat: 31–37 -> 25–28 µs an INSERT.
--
-- Tried and left: a first query without the runs lookup (every row at seq > 1 with its
-- predecessor), the full one only for a statement with a seq-1 row: 32.7 -> 23.2 µs a step's
-- INSERT, but a run's creation paid one query more (+10–15 µs), and a short run has as many
-- creations as commits. A foreign key (run_id, seq - 1) -> events for the gap-free rule: 40 µs
-- less for a one-event commit, but twice the CPU for a group commit of 256 events (one check
-- per row) and 64 more WAL bytes an event (the key share lock on its predecessor).
--
-- Its lookups are each fenced with OFFSET 0, which keeps Postgres from turning a correlated EXISTS
-- into a hashed subplan. The trigger's query is planned at its first call on a connection and the
-- plan kept: planned while "events" was small, the former query (this one too, unfenced) could
-- keep a plan that hashes the whole table at every statement. Seen on the commit lane at 200 runs
-- x 5 op steps, c=8, fresh database (track_functions): the trigger 0.07 ms a call in one run,
-- 0.86 ms in another, by which plan its first call made; reproduced in psql (auto_explain:
-- "hashed SubPlan ... Seq Scan on events"). Fenced, each lookup is one index probe a row.
--
-- What a writer sees is the same: a statement with an event whose data is not an object, or
-- whose seq is below 1, is refused whole with SQLSTATE 23514 (check_violation) and the former
-- constraint's name and message; then, as before, an event of a run that is not there (SC002)
-- or one that does not continue its log (SC003). The statement is judged after its rows are
-- inserted rather than row by row before: either way nothing of it is written. What differs is
-- only for a superuser who turns triggers off (session_replication_role = replica): they could
-- already break the gap-free rule, and now these two as well.

ALTER TABLE "events" DROP CONSTRAINT "events_seq_check";
ALTER TABLE "events" DROP CONSTRAINT "events_data_check";

CREATE OR REPLACE FUNCTION stagecraft_require_gap_free_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_run text;
  v_seq int;
BEGIN
  -- every row continues its log (or is its run's first event) and its data is an object: the common case
  IF NOT EXISTS (SELECT 1 FROM "inserted" n
                  WHERE json_typeof(n."data") <> 'object'
                     OR CASE WHEN n."seq" = 1
                             THEN NOT EXISTS (SELECT 1 FROM "runs" r WHERE r."id" = n."run_id" OFFSET 0)
                             ELSE NOT EXISTS (SELECT 1 FROM "events" e WHERE e."run_id" = n."run_id" AND e."seq" = n."seq" - 1 OFFSET 0) END) THEN
    RETURN NULL;
  END IF;
  -- refused: first what the table's CHECKs refused, with their names and words
  IF EXISTS (SELECT 1 FROM "inserted" n WHERE json_typeof(n."data") <> 'object') THEN
    RAISE EXCEPTION 'new row for relation "events" violates check constraint "events_data_check"'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'events_data_check', TABLE = 'events',
            HINT = 'An event''s data is a JSON object.';
  END IF;
  IF EXISTS (SELECT 1 FROM "inserted" n WHERE n."seq" < 1) THEN
    RAISE EXCEPTION 'new row for relation "events" violates check constraint "events_seq_check"'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'events_seq_check', TABLE = 'events',
            HINT = 'A run''s events are numbered from 1.';
  END IF;
  -- then an unknown run or a gap: as *_events_run_checked_at_seq_one
  SELECT n."run_id", n."seq" INTO v_run, v_seq
    FROM "inserted" n
   WHERE CASE WHEN n."seq" = 1
              THEN NOT EXISTS (SELECT 1 FROM "runs" r WHERE r."id" = n."run_id" OFFSET 0)
              ELSE NOT EXISTS (SELECT 1 FROM "events" e WHERE e."run_id" = n."run_id" AND e."seq" = n."seq" - 1 OFFSET 0) END
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
