// Opening the run queue from several processes at once, on a database that has none yet: pg-boss's
// create_queue attaches a partition to its job table, and concurrent creators could deadlock
// ("deadlock detected" killed a worker at start in CI). Each open must succeed, and one queue
// results, which every opener can use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunQueue } from './run-queue';
import { createTestDatabase } from '../store/testing/pg-test-db';

const OPENERS = 6;

for (let round = 1; round <= 4; round++) {
  test(`${OPENERS} processes open the queue at once on a fresh database (round ${round}): all open, one queue`, async () => {
    const db = await createTestDatabase();
    const queues: RunQueue[] = [];
    try {
      const opened = await Promise.allSettled(
        Array.from({ length: OPENERS }, async (_, i) => {
          // staggered, as workers started one after another are: some create while others already maintain
          await new Promise((r) => setTimeout(r, i * 40));
          return RunQueue.open(db.url, { supervise: true, poolSize: 2 });
        }),
      );
      for (const o of opened) if (o.status === 'fulfilled') queues.push(o.value);
      const failures = opened.flatMap((o) => (o.status === 'rejected' ? [String((o.reason as Error).message)] : []));
      assert.deepEqual(failures, []);
      await queues[0].enqueue('run-a');
      for (const q of queues) assert.equal(await q.depth(), 1);
      const [job] = await queues[OPENERS - 1].fetch(5);
      assert.equal(job.runId, 'run-a');
    } finally {
      await Promise.all(queues.map((q) => q.close().catch(() => undefined)));
      await db.drop();
    }
  });
}
