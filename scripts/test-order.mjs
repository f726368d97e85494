/**
 * The order the node tests start in (scripts/test.mjs), and how many run at once.
 *
 * Most of the suite's time is waiting, not computing: a test file's wall time was about twice its
 * CPU time, summed over the unit and database tests (664 s of wall, 327 s of CPU, each file run
 * alone on this suite's 2-core machine) — processes started, restarted and killed, steps that sleep,
 * deadlines run out, Postgres restarted. So more files run at once than there are cores, and the
 * files that wait longest start first, so that their waits overlap the rest rather than trail
 * behind the last short file (measured: the unit and database stage 337 s at 2 at once in file
 * order, 239 s at 4 at once, these first).
 */

/** files that take longest by the clock, longest first (measured each alone; a file not here starts after them, in name order) */
export const LONGEST_FIRST = [
  'lib/server/crash/crash.db.test.ts',
  'lib/sandbox/sandbox.test.ts',
  'lib/server/escape/values.db.test.ts',
  'lib/queue/kill.db.test.ts',
  'cli/cli.db.test.ts',
  'cli/replay.db.test.ts',
  'lib/queue/chaos.db.test.ts',
  'lib/server/runs/spawner-runs.db.test.ts',
  'lib/store/migrations.db.test.ts',
  'cli/versions.db.test.ts',
  'lib/store/embedded-template.db.test.ts',
  'cli/runs-empty.test.ts',
  'lib/sandbox/protocol.test.ts',
  'lib/store/prisma-store.db.test.ts',
  'lib/telemetry/otlp.db.test.ts',
  'lib/server/net/http-get.test.ts',
  'lib/store/open-store.db.test.ts',
  'cli/replay-check-exit.test.ts',
  'lib/sandbox/resources.test.ts',
  // the HTTP tests (a stage of their own, against the built app)
  'lib/server/http/admission.http.test.ts',
  'cli/through-app.http.test.ts',
  'cli/resume-through-app.http.test.ts',
  'cli/run-through-app.http.test.ts',
  'cli/replay-through-app.http.test.ts',
  'bench/bench-inspector.http.test.ts',
  'lib/server/http/abort-in-flight.http.test.ts',
];

/** `files` with those of LONGEST_FIRST first, in its order, then the rest as given */
export function longestFirst(files) {
  const known = LONGEST_FIRST.filter((f) => files.includes(f));
  return [...known, ...files.filter((f) => !known.includes(f))];
}

/** how many test files run at once: TEST_CONCURRENCY, else `fallback` */
export function concurrency(fallback) {
  const given = process.env.TEST_CONCURRENCY;
  if (given === undefined || given === '') return fallback;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1) throw new Error(`TEST_CONCURRENCY=${given}: give a whole number of test files at once, 1 or more`);
  return n;
}
