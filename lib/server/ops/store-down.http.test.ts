// The embedded store that cannot be opened (its data directory held by another process, as a CLI
// command or a second app holds it): every page says the store is unreachable, naming the data
// directory actually in use (STAGECRAFT_DATA_DIR, not a fixed ./.stagecraft) and what to check for
// it, with a 503 — not a 200 — and the API answers 503 too; once the directory is free, the pages
// come back with it. Before, the page answered 200 and told to check a Postgres server.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startApp, type AppServer } from '../http/testing/app-server';
import { acquireDataDirLock } from '../../store/data-dir-lock';
import { STORE_STATUS_HEADER, storeStatusHeaderValue } from './store-status-registry';

// what a client could send to pass for the proxy's answer (proxy.ts drops it): it changes nothing
const FORGED_UP = { [STORE_STATUS_HEADER]: storeStatusHeaderValue({ reachable: true }) };
const FORGED_DOWN = { [STORE_STATUS_HEADER]: storeStatusHeaderValue({ reachable: false, reason: 'forged', where: 'nowhere', isEmbedded: false }) };

let app: AppServer | undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-store-down-'));
after(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('pages answer 503 naming the embedded data dir in use while it cannot be opened, and come back with it', async () => {
  // held by this process: the app cannot open the embedded store in it
  const lock = acquireDataDirLock(dataDir);
  app = await startApp({ dataDir, isStoreless: true });
  try {
    for (const p of ['/', '/runs', '/runs/run_nope']) {
      const r: Response = await fetch(`${app.url}${p}`);
      const text = await r.text();
      assert.equal(r.status, 503, `${p}: ${r.status}`);
      assert.match(text, /The store is unreachable/, p);
      assert.ok(text.includes(`the embedded store in ${dataDir}`), `${p} names the data dir in use`);
      assert.match(text, /no other Stagecraft process holds it/, p);
      assert.doesNotMatch(text, /Check that the Postgres server is running/, `${p} does not send the user to a Postgres server`);
    }
    const forged: Response = await fetch(`${app.url}/runs`, { headers: FORGED_UP });
    assert.equal(forged.status, 503, 'a forged header does not make a down store look up');
    assert.match(await forged.text(), /The store is unreachable/);
    const api: Response = await fetch(`${app.url}/api/runs`);
    assert.equal(api.status, 503, await api.text());
  } finally {
    lock.release();
  }
  // free again: the store opens on the next request, and the pages are themselves
  let page: Response | undefined;
  for (let i = 0; i < 120; i++) {
    page = await fetch(`${app.url}/runs`);
    if (page.status === 200) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.equal(page?.status, 200);
  assert.doesNotMatch(await page!.text(), /The store is unreachable/);
  const forged: Response = await fetch(`${app.url}/runs`, { headers: FORGED_DOWN });
  assert.equal(forged.status, 200, 'a forged header does not make an up store look down');
  const text = await forged.text();
  assert.doesNotMatch(text, /The store is unreachable|forged/);
});
