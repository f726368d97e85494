// The route wrapper refuses what a caller sent before any handler (or the database) sees it: a NUL
// in a query value is a 400 naming the parameter, never a 500 from the database that refuses it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { defineRoute, jsonAnswer } from '../../api/route-def';
import { handle } from './handle';

const listing = defineRoute({
  method: 'GET',
  path: '/api/things',
  summary: 'things',
  query: z.object({ q: z.string().optional(), failed: z.string().optional() }),
  answer: jsonAnswer(z.object({ ok: z.boolean() }).strict()),
});

test('a NUL in a query value is a 400 that names the parameter, and the handler is never called', async () => {
  let called = 0;
  const route = handle(listing, async () => {
    called++;
    return { ok: true };
  });
  for (const qs of ['q=%00', 'failed=a%00b', 'other=x%00']) {
    const res = await route(new Request(`http://127.0.0.1/api/things?${qs}`), { params: Promise.resolve({}) });
    assert.equal(res.status, 400, qs);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'usage');
    assert.match(body.error.message, new RegExp(`^\\?${qs.split('=')[0]}=.*NUL`));
  }
  assert.equal(called, 0);
  const ok = await route(new Request('http://127.0.0.1/api/things?q=KeyError%09x'), { params: Promise.resolve({}) });
  assert.equal(ok.status, 200);
  assert.equal(called, 1);
});
