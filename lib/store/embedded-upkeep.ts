/**
 * The embedded store's upkeep: the VACUUM and ANALYZE autovacuum would give it. PGlite is one
 * backend with no autovacuum launcher, and a run's end is a non-HOT update of its `runs` row
 * (`status` is indexed), so a store never vacuumed keeps a dead version of every run it ended,
 * with an entry in each index of `runs`. A count of running runs (the health route, the runs
 * list's status filter) then visits every one of them on each call: at 30k runs, 2-8k heap pages
 * read for 0 rows, ~50 ms warm and 0.5-1.5 s cold, where a vacuumed store answers with an
 * index-only scan in well under a millisecond.
 *
 * When: once UPKEEP_EVERY_RUNS runs have been added since the last upkeep — the threshold the
 * store's tables have for autovacuum on a server (the *_tiny_tables_not_analyzed migration), so a
 * tiny table is never analyzed here either and at most ~1,000 dead versions wait. Known without
 * any bookkeeping of its own: VACUUM and ANALYZE write the row count they saw in
 * pg_class.reltuples (kept across restarts, where PGlite's activity statistics are not), and the
 * check asks whether a run lies that many and UPKEEP_EVERY_RUNS more rows in (an index-only walk
 * of the primary key: ~10 ms at 30k runs). Checked every UPKEEP_CHECK_MS while the store is open,
 * the first a while after open so that start-up is not slowed, and only when the line is idle (a busy line is asked again a second later).
 *
 * How: each statement takes its own turn on the embedded line (embedded-line.ts), as background
 * work: a read someone waits on goes first, and a commit waits for one statement at most. `runs`
 * is analyzed from a sample of 3,000 rows (statistics target 10) rather than Postgres's 30,000:
 * at 30k runs ANALYZE took 0.6-2.5 s of the line with the default and 0.1-0.4 s so; a store
 * holds a few statuses, kinds and outcomes, and a plan needs no finer picture to choose an index.
 * Measured at 30k runs (PGlite 0.5.14, a busy 2-core machine): 1,000 runs after the last upkeep,
 * ANALYZE 66-212 ms and VACUUM 25-74 ms; the first upkeep of a store grown to 30k runs without
 * one, ANALYZE 0.7-0.8 s and VACUUM 0.4-0.5 s (once). Each is one turn of the line.
 * Tables: `runs` (each run's end) and `snapshots` (upserted at each commit that carries one,
 * deleted with its run's end); the other tables take inserts only. VACUUM goes after ANALYZE so
 * that the row count the next check starts from is VACUUM's, not the sample's estimate (with it
 * the other way, 1,000 runs added to 30k were not yet due).
 *
 * Owns: when the embedded store is vacuumed and analyzed. Does not: a Postgres server's upkeep
 * (its autovacuum's job), or the order of the database's work (embedded-line.ts).
 */
import type { EmbeddedLine } from './embedded-line';

/** runs added since the last upkeep that make the next one due */
export const UPKEEP_EVERY_RUNS = 1000;
/** how often an open store checks; its first check waits UPKEEP_FIRST_CHECK_MS */
export const UPKEEP_CHECK_MS = 60_000;
export const UPKEEP_FIRST_CHECK_MS = 20_000;

/** the upkeep's statements, in order, each one turn on the line */
export const UPKEEP_STATEMENTS = [
  'SET default_statistics_target = 10; ANALYZE "runs"; RESET default_statistics_target',
  // after ANALYZE, whose row count is a sample's estimate: VACUUM's counts the pages it reads
  'VACUUM "runs"',
  'VACUUM (ANALYZE) "snapshots"',
];

/** what the upkeep needs of the database: a query's rows, and statements run as a script (VACUUM cannot run in a transaction) */
export type UpkeepDb = { query(text: string): Promise<{ rows: unknown[] }>; exec(text: string): Promise<unknown> };

/** Whether UPKEEP_EVERY_RUNS runs were added since `runs` was last vacuumed or analyzed (never: its count is taken as 0). */
export async function upkeepDue(db: UpkeepDb): Promise<boolean> {
  const [row] = (await db.query(
    `SELECT EXISTS (SELECT 1 FROM "runs" OFFSET (SELECT GREATEST(reltuples, 0)::bigint FROM pg_class WHERE oid = '"runs"'::regclass) + ${UPKEEP_EVERY_RUNS - 1} LIMIT 1) AS due`,
  )).rows as { due: boolean }[];
  return row.due === true;
}

/** The upkeep, when it is due; whether it ran. `stopped` is asked before each statement: a closing store waits for one at most. */
export async function upkeepIfDue(line: EmbeddedLine, db: UpkeepDb, stopped: () => boolean = () => false): Promise<boolean> {
  if (!(await line.use(() => upkeepDue(db), 'background'))) return false;
  for (const statement of UPKEEP_STATEMENTS) {
    if (stopped()) return false;
    await line.use(() => db.exec(statement), 'background');
  }
  return true;
}

/** a check that found the line busy tries again this soon, not a whole UPKEEP_CHECK_MS later: a store in steady use is the one that needs it */
export const UPKEEP_BUSY_RETRY_MS = 1_000;

/**
 * Checks every UPKEEP_CHECK_MS (timers unref'd: an open store does not keep the process up);
 * a check that finds the line busy tries again UPKEEP_BUSY_RETRY_MS later. `stop` ends the checks,
 * and waits for the statement under way, if any (the rest are not sent; the store closes after it).
 */
export function keepUp(line: EmbeddedLine, db: UpkeepDb, onError: (e: unknown) => void = () => {}): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    const idle = line.idle();
    if (idle) {
      running = upkeepIfDue(line, db, () => stopped).catch((e: unknown) => {
        try {
          onError(e);
        } catch {
          // a reporter that throws must not leave the checks' promise rejected
        }
      });
    }
    void running.finally(() => {
      if (!stopped) timer = setTimeout(tick, idle ? UPKEEP_CHECK_MS : UPKEEP_BUSY_RETRY_MS).unref();
    });
  };
  timer = setTimeout(tick, UPKEEP_FIRST_CHECK_MS).unref();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
