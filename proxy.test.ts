// A page GET asks the store once: the proxy's answer (a 503 while the store is down) goes on to the
// layout on the forwarded request, which reads it there instead of asking again — and only the
// proxy's: a header of that name a client sends is dropped, so it can make neither a down store look
// up nor an up one down. Before, the proxy and the layout each pinged the store for every page.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { NextRequest } from 'next/server';
import { proxy } from './proxy';
import { pageStoreStatus, registerStoreStatus, STORE_STATUS_HEADER, storeStatusHeaderValue, type StoreStatus } from './lib/server/ops/store-status-registry';

const UP: StoreStatus = { reachable: true };
const DOWN: StoreStatus = { reachable: false, reason: 'connection refused', where: 'the embedded store in /data', isEmbedded: true };
const KEY = Symbol.for('stagecraft.storeStatus');
delete process.env.STAGECRAFT_TOKEN;
afterEach(() => delete (globalThis as Record<symbol, unknown>)[KEY]);

/** the store's check, counting the pings */
function store(status: StoreStatus) {
  const s = { pings: 0, check: async () => (s.pings++, status) };
  return s;
}

/** the request headers the proxy forwards to the page (Next passes them as x-middleware-request-*) */
function forwarded(res: Response): Headers {
  const out = new Headers();
  for (const name of (res.headers.get('x-middleware-override-headers') ?? '').split(',').filter(Boolean)) out.set(name, res.headers.get(`x-middleware-request-${name}`) ?? '');
  return out;
}

/** a page GET as the server handles it: the proxy, then the layout on what the proxy forwarded */
async function pageGet(s: ReturnType<typeof store>, headers: Record<string, string> = {}) {
  const res = await proxy(new NextRequest('http://127.0.0.1:3000/runs', { headers: { host: '127.0.0.1:3000', ...headers } }));
  return { status: res.status, shown: await pageStoreStatus(forwarded(res), s.check) };
}

test('one ping per page GET serves the status and the page', async () => {
  for (const [status, code] of [[UP, 200], [DOWN, 503]] as const) {
    const s = store(status);
    registerStoreStatus(s.check);
    const r = await pageGet(s);
    assert.equal(r.status, code);
    assert.deepEqual(r.shown, status);
    assert.equal(s.pings, 1, `${status.reachable ? 'up' : 'down'}: pings per page GET`);
  }
});

test("a client's header cannot make a down store look up, nor an up store look down", async () => {
  const down = store(DOWN);
  registerStoreStatus(down.check);
  const forgedUp = await pageGet(down, { [STORE_STATUS_HEADER]: storeStatusHeaderValue(UP) });
  assert.equal(forgedUp.status, 503);
  assert.deepEqual(forgedUp.shown, DOWN);
  const up = store(UP);
  registerStoreStatus(up.check);
  const forgedDown = await pageGet(up, { [STORE_STATUS_HEADER]: storeStatusHeaderValue(DOWN) });
  assert.equal(forgedDown.status, 200);
  assert.deepEqual(forgedDown.shown, UP);
});

test('before the app registers its check, the proxy drops a forged header and the page asks itself', async () => {
  const down = store(DOWN);
  const r = await pageGet(down, { [STORE_STATUS_HEADER]: storeStatusHeaderValue(UP) });
  assert.equal(r.status, 200, 'the proxy could not ask');
  assert.deepEqual(r.shown, DOWN);
  assert.equal(down.pings, 1);
});
