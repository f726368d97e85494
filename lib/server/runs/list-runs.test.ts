// The runs list's cursor is opaque, and one this API could not have given is the caller's mistake (a
// 400 naming it), never a 500 from the database refusing a time past any date or an order past a bigint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeRunCursor, encodeRunCursor, listRuns, type RunIndexHost } from './list-runs';
import type { RunCursor } from '../../store/run-index';
import { routes } from '../../api/routes';

test('a cursor round-trips; one past any date or past a bigint is a usage error', () => {
  assert.deepEqual(decodeRunCursor(encodeRunCursor({ createdAt: 1796270433165, ord: '42' })), { createdAt: 1796270433165, ord: '42' });
  assert.deepEqual(decodeRunCursor('8640000000000000.9223372036854775807'), { createdAt: 8_640_000_000_000_000, ord: '9223372036854775807' });
  for (const bad of ['9999999999999999.1', '1.9999999999999999999', '8640000000000001.1', '1.9223372036854775808', 'garbage']) {
    assert.throws(() => decodeRunCursor(bad), (e: Error & { code?: string }) => e.code === 'usage' && /is not a cursor this API gave/.test(e.message), bad);
  }
});

test('a seq past a Postgres integer is refused by the route, naming the limit', () => {
  const events = routes.listRunEvents.query.safeParse({ after: 99_999_999_999_999 });
  assert.equal(events.success, false);
  assert.match(events.error?.issues[0].message ?? '', /must be at most 2147483647/);
  assert.equal(routes.listRunEvents.query.safeParse({ after: 2_147_483_647 }).success, true);
  assert.equal(routes.streamRun.query.safeParse({ after: 2_147_483_648 }).success, false);
});

test('a cursor the caller already decoded (the CLI checks --cursor before the store opens) is used as it is', async () => {
  const asked: (RunCursor | undefined)[] = [];
  const host = { store: { runIndex: { page: async (_s: unknown, o: { after?: RunCursor }) => (asked.push(o.after), { rows: [], next: null }) } } } as unknown as RunIndexHost;
  const cursor = { createdAt: 1796270433165, ord: '42' };
  await listRuns(host, { cursor });
  await listRuns(host, { cursor: encodeRunCursor(cursor) });
  await listRuns(host, {});
  assert.deepEqual(asked, [cursor, cursor, undefined]);
});
