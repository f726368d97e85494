// The generated columns failed_at and needs_attention read a run's report only where it may hold what
// they look for (prisma/migrations/*_run_columns_skip_absent_keys): the same answers as the rules
// before for every report and error — those of every kind of end, and reports that spell their keys
// with \u escapes or spaces — on both backends; and a report that holds none of it, however large,
// is not walked: computing both columns costs well under what the rules before cost.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultMigrationPaths } from './migrate/migrations';
import type { OpenedStore } from './open-store';
import { bothBackends } from './testing/both-backends';

/**
 * The CPU time a process's main thread (a Postgres backend: its only one) has used, in ns, from Linux's
 * /proc/<pid>/schedstat; null where it cannot be read (another machine's server, another OS).
 */
function threadCpuNs(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return null;
  }
}

/** the rules as a migration before the change wrote them, renamed `stagecraft_test_prev_*` */
function previousRule(migration: string, fn: string): string {
  const sql = readFileSync(path.join(defaultMigrationPaths().migrationsDir, migration, 'migration.sql'), 'utf8');
  const m = new RegExp(`CREATE OR REPLACE FUNCTION ${fn}\\([\\s\\S]*?\\$\\$;`).exec(sql);
  assert.ok(m, `${fn} in ${migration}`);
  return m[0].replace(fn, fn.replace('stagecraft_', 'stagecraft_test_prev_'));
}

const ok = (extra = '') =>
  `{"outcome":"succeeded","block_reason":null,"failed_stage":null,"changed_paths":[],"step_counts":{"model":1,"processor_by_status":{"ok":2}},` +
  `"failed_step":null,"aborted_by":null,"blocked_by":null,"needs_attention":false${extra}}`;

const REPORTS = [
  null,
  'null',
  ok(),
  ok(',"summary":"a \\"quoted\\" \\\\ line\\n"'),
  '{"outcome":"blocked","failed_stage":null}',
  '{ "outcome" : "blocked" }',
  '{"outcome":"bl\\u006fcked"}',
  '{"outcome":"failed","failed_stage":{"capability":"lint","stage":"check"}}',
  '{"outcome":"failed","failed_stage":{"c\\u0061pability":"lint","stage":"check"}}',
  '{"outcome":"failed","failed_stage":{"capability":"lint"}}',
  '{"outcome":"blocked","failed_step":{"position":"draft#2/pre/1"}}',
  '{"outcome":"blocked","failed_step":{"p\\u006fsition":"draft#2/pre/1"}}',
  '{"outcome":"blocked","failed_step":{ "position" : "x/1" },"failed_step":null}',
  '{"outcome":"blocked","aborted_by":{"by":"request"}}',
  '{"outcome":"blocked","aborted_by":{"\\u0062y":"request"}}',
  '{"outcome":"blocked","aborted_by":{"by":"step"}}',
  '["position","capability","by","blocked"]',
  '"blocked"',
];
const ERRORS = [
  null,
  'null',
  '{"message":"x","phase":"draft"}',
  '{"message":"x","phase":"draft","position":"draft/r3/model"}',
  '{"code":"workflow_aborted","message":"x","phase":"__post__","step":2,"stepType":"validate"}',
  '{"message":"x","capability":"lint","stage":"check"}',
  '{"message":"aborted on request: no","requestedBy":"user","phase":"draft"}',
  '{"message":"aborted on request: stale","phase":"draft"}',
];
const STATUSES = ['running', 'completed', 'failed', 'aborted'];

const backends = bothBackends();

for (const [name, open] of backends) {
  describe(`the runs' failed_at and needs_attention on ${name}`, () => {
    let store: OpenedStore;
    let sql: <T>(text: string, ...values: unknown[]) => Promise<T[]>;
    before(async () => {
      store = await open();
      const db = await store.db();
      sql = (text, ...values) => db.$queryRawUnsafe(text, ...values);
      await db.$executeRawUnsafe(previousRule('20261204090000_failed_at_phase_stopped', 'stagecraft_run_failed_at'));
      await db.$executeRawUnsafe(previousRule('20261202123000_run_columns_not_inlined', 'stagecraft_run_needs_attention'));
    });
    after(() => store.close());

    it('answer as the rules before did, for every report, error and status', async () => {
      const cases = REPORTS.flatMap((r) => ERRORS.flatMap((e) => STATUSES.map((s) => ({ r, e, s })))).map((c, i) => ({ ...c, i: i + 1 }));
      const rows = await sql<{ i: number; fa: string | null; pfa: string | null; na: boolean; pna: boolean }>(
        `SELECT c.i::int AS i, stagecraft_run_failed_at(c.r, c.e) AS fa, stagecraft_test_prev_run_failed_at(c.r, c.e) AS pfa,
                stagecraft_run_needs_attention(c.s, c.r, c.e) AS na, stagecraft_test_prev_run_needs_attention(c.s, c.r, c.e) AS pna
           FROM (SELECT x.r::json AS r, x.e::json AS e, x.s, x.i FROM json_to_recordset($1::json) AS x(r text, e text, s text, i int)) c`,
        JSON.stringify(cases),
      );
      assert.equal(rows.length, cases.length);
      let answered = 0;
      for (const row of rows) {
        const c = cases[row.i - 1];
        assert.deepEqual([row.fa, row.na], [row.pfa, row.pna], `report ${c.r}, error ${c.e}, status ${c.s}`);
        if (row.fa !== null) answered++;
      }
      assert.ok(answered > 50, `the cases name where runs failed (${answered})`);
    });

    it('do not walk a report that holds none of what they look for: both cost well under the rules before', async () => {
      // a run that ended well with a large report (its changed paths): ~400 KB of JSON, which the rules
      // before walked five times (failed_at four, needs_attention once)
      const paths = Array.from({ length: 20_000 }, (_, i) => `out/file-${i}.txt`);
      await sql(`CREATE TABLE IF NOT EXISTS "test_big_report" ("r" json)`);
      await sql(`INSERT INTO "test_big_report" VALUES ($1::json)`, ok(`,"changed_paths_all":${JSON.stringify(paths)}`));
      const query = (prefix: string) =>
        `SELECT count(${prefix}run_failed_at(r, NULL)) + count(NULLIF(${prefix}run_needs_attention('completed', r, NULL), false)) AS n
           FROM "test_big_report", generate_series(1, 10)`;
      // what a query costs: the CPU time of the thread that ran it (this process's main thread for
      // PGlite, which runs in it; the server's backend for Postgres, on one connection for the pair of
      // reads), not the time it took by the clock, which the four test files running beside it stretch
      // at random; by the clock only where the backend's CPU time cannot be read (a server elsewhere)
      const db = await store.db();
      const measured = async (pid: number, read: () => Promise<unknown>) => {
        const [cpu0, t0] = [threadCpuNs(pid), performance.now()];
        await read();
        const [cpu1, t1] = [threadCpuNs(pid), performance.now()];
        return cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / 1e6 : t1 - t0;
      };
      const cost = (prefix: string) =>
        name === 'PGlite'
          ? measured(process.pid, () => sql(query(prefix)))
          : db.$transaction(async (tx) => {
              const [{ pid }] = await tx.$queryRawUnsafe<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
              return measured(pid, () => tx.$queryRawUnsafe(query(prefix)));
            });
      const [now, before] = [[], []] as [number[], number[]];
      // interleaved, the least of five each, and a wide margin (measured 0.35–0.46)
      for (let i = 0; i < 5; i++) {
        now.push(await cost('stagecraft_'));
        before.push(await cost('stagecraft_test_prev_'));
      }
      const [n, b] = [Math.min(...now), Math.min(...before)];
      assert.ok(n < b * 0.75, `both columns: ${n.toFixed(1)} ms of CPU now vs ${b.toFixed(1)} ms by the rules before, 10 rows`);
    });
  });
}
