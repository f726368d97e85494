-- Hand-written: what Prisma does not model. `npm run db:check` ignores it.
--
-- `stagecraft_apply(ops, durable)`: the batch function of *_batched_apply, told that its
-- statement writes more than its operations. The commit lanes (lib/store/commit-lanes.ts) write
-- the units that only append events (and artifacts) with plain INSERTs in the statement's WITH
-- clause, and pass the other operations of the batch here; those INSERTs are durable writes, so
-- a batch whose own operations are all lazy (or only claims) must not turn synchronous_commit
-- off for the transaction they share. `stagecraft_apply(ops)` is `stagecraft_apply(ops, false)`.
CREATE FUNCTION stagecraft_apply(p_ops jsonb, p_durable boolean) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_op jsonb;
  v_out json[] := '{}';
  v_r json;
  v_sync boolean := p_durable;
  v_unlocks bigint[] := '{}';
BEGIN
  FOR i IN 0 .. jsonb_array_length(p_ops) - 1 LOOP
    v_op := p_ops -> i;
    CASE v_op ->> 'op'
      WHEN 'commit' THEN
        IF v_op ? 'unlock' THEN
          v_unlocks := array_append(v_unlocks, (v_op ->> 'unlock')::bigint);
        END IF;
        v_r := coalesce(stagecraft_append_one(v_op ->> 'runId', v_op -> 'unit'),
                        stagecraft_commit(v_op ->> 'runId', v_op -> 'unit'));
        IF (v_op -> 'unit' -> 'lazy') IS DISTINCT FROM 'true'::jsonb THEN
          v_sync := true;
        END IF;
      WHEN 'create' THEN
        v_r := stagecraft_create_run(v_op -> 'run', v_op -> 'unit');
        v_sync := true;
      WHEN 'claim' THEN
        v_r := json_build_object('claimed', pg_try_advisory_lock((v_op ->> 'key')::bigint));
      WHEN 'unlock' THEN
        v_unlocks := array_append(v_unlocks, (v_op ->> 'key')::bigint);
        v_r := '{}'::json;
      ELSE
        RAISE EXCEPTION 'unknown store operation %', v_op ->> 'op' USING ERRCODE = 'SC005';
    END CASE;
    v_out := array_append(v_out, v_r);
  END LOOP;
  -- last, once every operation is applied (see *_batched_apply)
  IF cardinality(v_unlocks) > 0 THEN
    PERFORM pg_advisory_unlock(k) FROM unnest(v_unlocks) AS k;
  END IF;
  IF NOT v_sync THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  RETURN array_to_json(v_out);
END;
$$;

CREATE OR REPLACE FUNCTION stagecraft_apply(p_ops jsonb) RETURNS json
LANGUAGE sql AS $$ SELECT stagecraft_apply(p_ops, false) $$;
