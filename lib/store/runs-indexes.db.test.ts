// The indexes of "runs" over a column most runs leave empty hold only the runs that fill it
// (prisma/migrations/*_runs_sparse_indexes, *_runs_last_run_by_version): a run that leaves it
// empty writes no entry there at its creation nor at its end; and the queries that ask for a value
// are still answered by the index, in a generic plan too (a prepared statement's, the foreign key's).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OpenedStore } from './open-store';
import { bothBackends } from './testing/both-backends';

const SPARSE: Record<string, string> = {
  runs_outcome_created_at_idx: 'outcome',
  runs_failed_at_created_at_idx: 'failed_at',
  runs_needs_attention_created_at_idx: 'needs_attention',
  runs_parent_run_id_idx: 'parent_run_id',
  runs_skill_version_id_idx: 'skill_version_id',
};

for (const [name, open] of bothBackends()) {
  describe(`the sparse indexes of runs on ${name}`, () => {
    let store: OpenedStore;
    let sql: <T>(text: string) => Promise<T[]>;
    before(async () => {
      store = await open();
      const db = await store.db();
      sql = (text) => db.$queryRawUnsafe(text);
    });
    after(() => store.close());

    it('hold only the runs whose column holds a value', async () => {
      const rows = await sql<{ name: string; pred: string | null }>(
        `SELECT c.relname::text AS name, pg_get_expr(i.indpred, i.indrelid) AS pred
           FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE i.indrelid = '"runs"'::regclass AND c.relname = ANY('{${Object.keys(SPARSE).join(',')}}')`,
      );
      assert.deepEqual(rows.map((r) => r.name).sort(), Object.keys(SPARSE).sort());
      for (const r of rows) assert.match(r.pred ?? '', new RegExp(`^\\(?${SPARSE[r.name]}( IS NOT NULL)?\\)?$`), r.name);
    });

    it('answer a query for a skill version, in a generic plan (the foreign key\'s ON DELETE SET NULL)', async () => {
      // one connection: a prepared statement and a setting are its session's
      const plan = await (await store.db()).$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`PREPARE runs_of_version(uuid) AS SELECT 1 FROM "runs" WHERE "skill_version_id" = $1`);
        await tx.$executeRawUnsafe(`SET LOCAL plan_cache_mode = force_generic_plan`);
        const rows = await tx.$queryRawUnsafe<Record<string, string>[]>(`EXPLAIN (COSTS OFF) EXECUTE runs_of_version('00000000-0000-0000-0000-000000000000')`);
        await tx.$executeRawUnsafe(`DEALLOCATE runs_of_version`);
        return rows.map((r) => Object.values(r)[0]).join('\n');
      });
      assert.match(plan, /runs_skill_version_id_idx/);
    });
  });
}
