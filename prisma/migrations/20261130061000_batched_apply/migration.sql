-- One round trip for many writes: `stagecraft_apply` takes a batch of write
-- operations (lib/store/wire.ts `wireOp`) and applies them in order, in the one
-- transaction of its statement. The store's commit lanes (lib/store/commit-lanes.ts)
-- send everything queued on a connection while its previous statement was in
-- flight as one batch: runs that commit at the same time share a round trip and
-- a WAL flush (group commit across runs).
--
-- Operations (each returns one element of the result array, in order):
--   {"op":"create","run":RUN,"unit":UNIT}        stagecraft_create_run     -> its result
--   {"op":"commit","runId":ID,"unit":UNIT[,"unlock":KEY]}
--                                                stagecraft_commit         -> its result
--   {"op":"claim","key":KEY}                     pg_try_advisory_lock(KEY) -> {"claimed":bool}
--   {"op":"unlock","key":KEY}                    pg_advisory_unlock(KEY)   -> {}
--
-- Claims are session-level advisory locks held by the connection the batch runs
-- on: a process that dies drops its connections and the server drops its claims.
-- A commit that ends a run may carry the unlock of its claim ("unlock"), so
-- letting go costs no round trip of its own. Session locks are not transactional:
-- taking or releasing one survives a rollback of the batch (the lanes undo the
-- claims of a failed batch before they retry its operations one by one).
--
-- Durability: a unit marked "lazy": true holds only what a resume re-derives by
-- re-running pure work from the last durable commit (kernel/journal.ts). A batch
-- whose every write is lazy commits with synchronous_commit off: the server
-- acknowledges it before its WAL is flushed, and the WAL writer flushes it within
-- a few hundred milliseconds. It survives the crash of any client process; only a
-- crash of the server itself in that window can lose it, and then the run resumes
-- from its last durable commit and recomputes the same result. WAL is flushed in
-- order, so a later synchronous commit (any effectful step, model turn, run
-- creation) makes every earlier lazy one durable with it.
CREATE FUNCTION stagecraft_apply(p_ops jsonb) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_op jsonb;
  v_out json[] := '{}';
  v_r json;
  v_sync boolean := false;
BEGIN
  FOR v_op IN SELECT value FROM jsonb_array_elements(p_ops) LOOP
    CASE v_op ->> 'op'
      WHEN 'commit' THEN
        IF v_op ? 'unlock' THEN
          PERFORM pg_advisory_unlock((v_op ->> 'unlock')::bigint);
        END IF;
        v_r := stagecraft_commit(v_op ->> 'runId', v_op -> 'unit');
        IF (v_op -> 'unit' -> 'lazy') IS DISTINCT FROM 'true'::jsonb THEN
          v_sync := true;
        END IF;
      WHEN 'create' THEN
        v_r := stagecraft_create_run(v_op -> 'run', v_op -> 'unit');
        v_sync := true;
      WHEN 'claim' THEN
        v_r := json_build_object('claimed', pg_try_advisory_lock((v_op ->> 'key')::bigint));
      WHEN 'unlock' THEN
        PERFORM pg_advisory_unlock((v_op ->> 'key')::bigint);
        v_r := '{}'::json;
      ELSE
        RAISE EXCEPTION 'unknown store operation %', v_op ->> 'op' USING ERRCODE = 'SC005';
    END CASE;
    v_out := array_append(v_out, v_r);
  END LOOP;
  IF NOT v_sync THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  RETURN array_to_json(v_out);
END;
$$;
