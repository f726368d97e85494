// A run that completed but was blocked (a stage denied a tool call) needs attention, and its runs list
// row said only that: not which stage blocked it, nor why. The row now carries its report's
// `blocked_by` (the stage, the call, the reason cut to BLOCKED_REASON_CHARS), read from the report of
// the page's blocked rows alone; a failed, aborted or succeeded run's row carries none. Both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OpenedStore } from './open-store';
import { BLOCKED_REASON_CHARS, type RunIndexRow } from './run-index';
import { bothBackends } from './testing/both-backends';
import { fillRuns } from './testing/fill-runs';

type Db = Awaited<ReturnType<OpenedStore['db']>>;

async function allRows(store: OpenedStore): Promise<RunIndexRow[]> {
  const rows: RunIndexRow[] = [];
  let after: RunIndexRow | undefined;
  for (;;) {
    const page = await store.runIndex.page({}, { limit: 100, after: after && { createdAt: after.createdAt, ord: after.ord } });
    rows.push(...page.rows);
    after = page.rows[page.rows.length - 1];
    if (!page.next) return rows;
  }
}

for (const [name, open] of bothBackends()) {
  describe(`a blocked run's row on ${name}`, () => {
    let store: OpenedStore;
    let db: Db;
    before(async () => {
      store = await open();
      db = await store.db();
      await fillRuns((sql, ...values) => db.$executeRawUnsafe(sql, ...values), { runs: 400 });
    });
    after(() => store.close());

    it('says which stage blocked it, which call and why; no other row says it', async () => {
      const rows = await allRows(store);
      const blocked = rows.filter((r) => r.status === 'completed' && r.outcome === 'blocked');
      assert.ok(blocked.length > 0 && rows.some((r) => r.status === 'failed') && rows.some((r) => r.outcome === 'succeeded'), 'the fill has each kind');
      for (const r of blocked) {
        assert.equal(r.needsAttention, true);
        assert.deepEqual(r.blockedBy && { ...r.blockedBy, call: 0 }, { stage: 'path_guard', call: 0, reason: 'reading secrets/keys.txt is not allowed by path_guard' }, r.id);
        assert.ok(Number.isInteger(r.blockedBy?.call));
      }
      for (const r of rows.filter((r) => !blocked.includes(r))) assert.equal(r.blockedBy, null, `${r.id} (${r.status}, ${r.outcome})`);
      // a filter on the outcome lists the same rows, with the same words
      const page = await store.runIndex.page({ outcome: ['blocked'], status: ['completed'] }, { limit: 500 });
      assert.deepEqual(page.rows.map((r) => [r.id, r.blockedBy]), blocked.map((r) => [r.id, r.blockedBy]));
    });

    it('cuts a long reason; a failed run whose report holds a blocked_by anyway carries none', async () => {
      const [b] = await db.$queryRawUnsafe<{ id: string }[]>(`SELECT "id" FROM "runs" WHERE "outcome" = 'blocked' AND "status" = 'completed' ORDER BY "id" LIMIT 1`);
      const long = `no <b>${'x'.repeat(2000)}</b>\n\u001b[2J`;
      await db.$executeRawUnsafe(
        `UPDATE "runs" SET "report" = json_build_object('outcome', 'blocked', 'blocked_by', json_build_object('stage', 'guard', 'position', 'p', 'call', 4, 'reason', $2::text)) WHERE "id" = $1`,
        b.id,
        long,
      );
      const [f] = await db.$queryRawUnsafe<{ id: string }[]>(`SELECT "id" FROM "runs" WHERE "status" = 'failed' ORDER BY "id" LIMIT 1`);
      await db.$executeRawUnsafe(
        `UPDATE "runs" SET "report" = ("report"::jsonb || '{"blocked_by":{"stage":"g","position":"p","call":1,"reason":"r"}}'::jsonb)::json WHERE "id" = $1`,
        f.id,
      );
      const rows = await allRows(store);
      const row = rows.find((r) => r.id === b.id);
      assert.equal(row?.blockedBy?.stage, 'guard');
      assert.equal(row?.blockedBy?.call, 4);
      assert.equal(row?.blockedBy?.reason.length, BLOCKED_REASON_CHARS);
      assert.equal(row?.blockedBy?.reason, `${long.slice(0, BLOCKED_REASON_CHARS - 1)}…`);
      assert.equal(rows.find((r) => r.id === f.id)?.blockedBy, null);
    });
  });
}
