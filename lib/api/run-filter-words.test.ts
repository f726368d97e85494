// A runs-list query the API cannot take is named in the words of what it takes — epoch ms for
// from/to, the status and outcome words, true/false — not zod's own ("Invalid input: expected
// number, received string", `Invalid option: expected one of "a"|"b"`, "Too small: expected
// number to be >=0"), which said neither what the parameter means nor what to send.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routes } from './routes';
import { handle } from '../server/http/handle';

test('?from, ?to, ?status, ?outcome and ?attention that do not fit say what they take, on the list and the chart alike', async () => {
  let called = 0;
  const answer = async () => {
    called++;
    return { runs: [], next: null } as never;
  };
  for (const route of [handle(routes.listRuns, answer), handle(routes.runStats, answer)]) {
    for (const [qs, says] of [
      ['from=yesterday', '?from="yesterday": must be epoch ms (a whole number of milliseconds since 1970, 0 or more): the runs created at or after it.'],
      ['from=1.5', '?from="1.5": must be epoch ms (a whole number of milliseconds since 1970, 0 or more): the runs created at or after it.'],
      ['to=-1', '?to="-1": must be epoch ms (a whole number of milliseconds since 1970, 0 or more): the runs created before it.'],
      ['status=done', "?status=\"done\": a run's status is one of queued, running, completed, failed, aborted (several: comma-separated)."],
      ['outcome=meh', "?outcome=\"meh\": a run's outcome is one of succeeded, blocked, failed (several: comma-separated)."],
      ['attention=maybe', '?attention="maybe": must be true or false (or 1 or 0).'],
    ] as const) {
      const res = await route(new Request(`http://127.0.0.1/api/runs?${qs}`), { params: Promise.resolve({}) });
      assert.equal(res.status, 400, qs);
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'usage');
      assert.equal(body.error.message, says);
    }
  }
  assert.equal(called, 0);
});
