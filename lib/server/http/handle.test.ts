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

// a body over its route's cap says what that cap is for: an exported run sent to /api/runs/import
// over 32 MB was told "a bundle holds at most 5 MB of files", which is about another route
test('a raw body over its cap is a 413 that speaks of that body, not of a bundle', async () => {
  const upload = defineRoute({ method: 'POST', path: '/api/upload', summary: 'a file', rawBody: 10, answer: jsonAnswer(z.object({ ok: z.boolean() }).strict()) });
  const route = handle(upload, async () => ({ ok: true }));
  const res = await route(new Request('http://127.0.0.1/api/upload', { method: 'POST', body: 'x'.repeat(11) }), { params: Promise.resolve({}) });
  assert.equal(res.status, 413);
  const body = (await res.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, 'payload_too_large');
  assert.match(body.error.message, /over the limit of 10\b/);
  assert.doesNotMatch(body.error.message, /bundle/);
  assert.match(body.error.message, /the file is sent whole/);
});

test("a handler stopped by the machine's files (a full disk) answers 503 saying so, not a 500 asking for a bug report", async () => {
  const route = handle(listing, async () => {
    try {
      (await import('node:fs')).writeFileSync('/dev/full', 'x'); // ENOSPC, as a full disk gives
    } catch (e) {
      throw new Error('saving the bundle failed', { cause: e });
    }
    return { ok: true };
  });
  const res = await route(new Request('http://127.0.0.1/api/things'), { params: Promise.resolve({}) });
  assert.equal(res.status, 503);
  const body = (await res.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, 'disk_full');
  assert.match(body.error.message, /^No space left on the device \(ENOSPC in write\)\. Free space on that disk/);
});
