-- Runs can wait to be driven: `queued` is a recorded run (its row holds the
-- skill, version, input and model) with no event yet. A worker, or the process's
-- own admission, starts it later with `run_started` (lib/kernel/runner.ts).
ALTER TABLE "runs" DROP CONSTRAINT "runs_status_check";
ALTER TABLE "runs" ADD CONSTRAINT "runs_status_check"
  CHECK ("status" IN ('queued', 'running', 'completed', 'failed', 'aborted'));

-- The `stagecraft worker` processes, as each reports itself every few seconds
-- (lib/queue/worker-registry.ts): what GET /api/health lists as workers seen in
-- the last minute. The run queue itself is pg-boss's, in its own schema.
-- CreateTable
CREATE TABLE "workers" (
    "id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "active_runs" INTEGER NOT NULL DEFAULT 0,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL,
    "stopped_at" TIMESTAMPTZ(3),

    CONSTRAINT "workers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "workers_seen_at_idx" ON "workers"("seen_at" DESC);
