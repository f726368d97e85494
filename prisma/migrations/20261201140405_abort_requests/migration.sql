-- A request to abort a run, recorded by whoever asks (the app, `stagecraft abort`)
-- and read by whoever drives the run, in this process or another: it polls
-- for the runs it drives (lib/store/abort-poll.ts) and ends them aborted.

-- CreateTable
CREATE TABLE "abort_requests" (
    "run_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "requested_by" TEXT NOT NULL,
    "via" TEXT,
    "requested_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "abort_requests_pkey" PRIMARY KEY ("run_id")
);

-- AddForeignKey
ALTER TABLE "abort_requests" ADD CONSTRAINT "abort_requests_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
