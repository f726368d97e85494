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
