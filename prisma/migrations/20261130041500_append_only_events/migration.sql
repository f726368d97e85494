-- Hand-written: what Prisma does not model. `npm run db:check` ignores it.

-- Events are the record of what happened: never updated, never deleted, never
-- truncated. The database refuses, so no code path (nor a psql session) can
-- rewrite history by accident. Runs are not deletable either: events hold a
-- RESTRICT foreign key to them. (A superuser can still disable the trigger:
-- this guards against mistakes, not against the database's owner.)
CREATE FUNCTION stagecraft_refuse_event_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'events are append-only: % on "events" refused', TG_OP
    USING ERRCODE = 'SC001',
          HINT = 'An event log is never rewritten; record a new event instead.';
END;
$$;

CREATE TRIGGER events_append_only
  BEFORE UPDATE OR DELETE ON "events"
  FOR EACH ROW EXECUTE FUNCTION stagecraft_refuse_event_change();

CREATE TRIGGER events_no_truncate
  BEFORE TRUNCATE ON "events"
  FOR EACH STATEMENT EXECUTE FUNCTION stagecraft_refuse_event_change();

-- Closed vocabularies and numbering the port's types promise.
ALTER TABLE "runs" ADD CONSTRAINT "runs_status_check"
  CHECK ("status" IN ('running', 'completed', 'failed', 'aborted'));
ALTER TABLE "events" ADD CONSTRAINT "events_seq_check" CHECK ("seq" >= 1);
ALTER TABLE "events" ADD CONSTRAINT "events_data_check" CHECK (jsonb_typeof("data") = 'object');
ALTER TABLE "stage_traces" ADD CONSTRAINT "stage_traces_status_check"
  CHECK ("status" IN ('ok', 'failed', 'refused', 'skipped'));
ALTER TABLE "snapshots" ADD CONSTRAINT "snapshots_data_check" CHECK (jsonb_typeof("data") = 'object');
