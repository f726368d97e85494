-- `runs_created_at_idx` (created_at DESC) is the leading column of `runs_created_at_ord_idx`
-- (created_at DESC, ord): every query the first served — the list's order and keyset pages,
-- a time range, the chart's buckets — the second serves as well (lib/store/run-index.ts,
-- prisma-store.ts listRuns). Each run inserts a row and ends with a non-HOT update (its status,
-- report and the generated columns change), so every index of "runs" costs each run two entries:
-- one index fewer is less to write at every start and every end.

-- DropIndex
DROP INDEX "runs_created_at_idx";
