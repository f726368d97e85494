-- Hand-written: what Prisma does not model. `npm run db:check` ignores it.

-- A run the app recorded but does not drive yet (STAGECRAFT_MAX_RUNS runs are
-- driven at once; the others wait their turn, recorded, so a restart picks
-- them up): `queued` until it is admitted, then `running`.
ALTER TABLE "runs" DROP CONSTRAINT "runs_status_check";
ALTER TABLE "runs" ADD CONSTRAINT "runs_status_check"
  CHECK ("status" IN ('queued', 'running', 'completed', 'failed', 'aborted'));
