-- Hand-written: what Prisma does not model. `npm run db:check` ignores it.
--
-- Autovacuum leaves the store's tables unanalyzed (and unvacuumed, for their size) until 1,000
-- rows have changed, not 50: a table it measured while tiny made every plan a connection keeps
-- a sequential scan, and a connection keeps its plans while the table grows.
--
-- Why: the commit functions' and the gap-free trigger's queries are planned once per connection
-- (plpgsql keeps them; after five calls a query with parameters keeps a generic plan, and the
-- trigger's query has none), and so are the foreign keys' checks (Postgres keeps those too). A
-- plan is made again only when its table is analyzed or vacuumed (or altered) anew. On a table
-- never analyzed Postgres assumes 10 pages and probes the key's index; on one analyzed at a page
-- or two a sequential scan costs less, and that plan is kept: the run lookups of stagecraft_commit
-- and stagecraft_create_run, max(seq) of stagecraft_commit and stagecraft_append_one, the
-- trigger's runs/events lookups (one scan of "events" per inserted row), the snapshot DELETE, the
-- conflict's join, the update of the run row, the FK check of snapshots/stage_traces/
-- workspace_artifacts -> runs: all "Seq Scan" (auto_explain, log_nested_statements). Measured
-- (psql, PG 15): 5 runs, ANALYZEd, plans made by 10 calls of each path; then 20k runs, 200k events
-- loaded by another session; in the first session 300 one-event commits took 13.0 s, 300
-- commits with a trace, snapshot, artifact and run patch 21.5 s; after DISCARD PLANS 0.11 s and
-- 0.31 s. Autovacuum analyzes a table once 50 rows (+10%) have changed: a fresh store's "runs",
-- "events", "snapshots" were analyzed at that size and its commit lanes' plans made again then.
--
-- On a server with autovacuum on (PG 15, naptime 1 s), 60 runs of 3 events, a trace, a snapshot
-- and an artifact: before, all five tables analyzed at 1-2 pages; with this, none. The same store
-- then loaded as above: 300 such commits 9.1 s before, 0.44 s with this; auto_explain of every
-- commit path: index scans only.
--
-- Unanalyzed, Postgres assumes a table of 10 pages at least: a key's index wins. At 1,000 changed
-- rows a table that grew by inserts is past the size at which it wins anyway (a sequential scan
-- of 1,000 rows costs 12.5 + pages against an index probe's ~8.3), so a plan made after
-- autovacuum's first visit is the index's, and so is every later one (autovacuum visits again as
-- the table grows by 10-20%, and plans are made again then). "snapshots" may still be analyzed
-- with few live rows (1,000 upserts of a few runs): only its DELETE (a snapshot dropped) could
-- then scan it, until its next visit. Until then the tables are small:
-- what autovacuum would have freed is at most 1,000 dead rows. Nothing written or read changes;
-- only when autovacuum visits. A manual ANALYZE of a tiny table can still make such plans: the
-- next autovacuum visit (1,000 rows later) makes them again.
--
-- Tried and left: `SET enable_seqscan = off` on the commit functions and the trigger (a per-call
-- GUC save and restore on every commit, and no help for the foreign keys' checks of a direct
-- write, planned outside them).

ALTER TABLE "runs" SET (autovacuum_analyze_threshold = 1000, autovacuum_vacuum_threshold = 1000);
ALTER TABLE "events" SET (autovacuum_analyze_threshold = 1000, autovacuum_vacuum_threshold = 1000);
ALTER TABLE "snapshots" SET (autovacuum_analyze_threshold = 1000, autovacuum_vacuum_threshold = 1000);
ALTER TABLE "stage_traces" SET (autovacuum_analyze_threshold = 1000, autovacuum_vacuum_threshold = 1000);
ALTER TABLE "workspace_artifacts" SET (autovacuum_analyze_threshold = 1000, autovacuum_vacuum_threshold = 1000);
