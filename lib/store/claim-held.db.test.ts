// Whether some process drives a run on Postgres is whether some session holds its claim (an advisory
// lock): read from pg_locks by another process, without taking the claim itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase } from './testing/pg-test-db';
import { openStore } from './index';
import { isClaimHeldAnywhere } from './claims';

test("another process's claim on a run is seen while it holds it, and not once it let go", async () => {
  const db = await createTestDatabase();
  const driver = await openStore({ databaseUrl: db.url });
  const watcher = await openStore({ databaseUrl: db.url });
  try {
    const sql = watcher.sql!;
    // many ids: keys whose high or low half has the sign bit set are read back too
    const ids = Array.from({ length: 16 }, (_, i) => `run_held_${i}`);
    const claims = await Promise.all(ids.map((id) => driver.claimRun(id)));
    for (const id of ids) assert.equal(await isClaimHeldAnywhere(sql, id), true, id);
    assert.equal(await isClaimHeldAnywhere(sql, 'run_nobody'), false);
    await Promise.all(claims.map((c) => c!.release()));
    for (const id of ids) assert.equal(await isClaimHeldAnywhere(sql, id), false, id);
  } finally {
    await watcher.close();
    await driver.close();
    await db.drop();
  }
});
