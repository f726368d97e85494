// The embedded store that cannot be opened (its data directory held by another process, as a CLI
// command or a second app holds it): every page says the store is unreachable, naming the data
// directory actually in use (STAGECRAFT_DATA_DIR, not a fixed ./.stagecraft) and what to check for
// it, with a 503 — not a 200 — and the API answers 503 too; once the directory is free, the pages
// come back with it. Before, the page answered 200 and told to check a Postgres server.
// The server's log says it in a line per page asked (what happened, what to do), no stack trace:
// Next renders a page beside the layout that shows the error, and logged the page's error whole.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { freePort, startApp, type AppServer } from '../http/testing/app-server';
import { acquireDataDirLock } from '../../store/data-dir-lock';
import { STORE_STATUS_HEADER, storeStatusHeaderValue } from './store-status-registry';

// what a client could send to pass for the proxy's answer (proxy.ts drops it): it changes nothing
const FORGED_UP = { [STORE_STATUS_HEADER]: storeStatusHeaderValue({ reachable: true }) };
const FORGED_DOWN = { [STORE_STATUS_HEADER]: storeStatusHeaderValue({ reachable: false, reason: 'forged', where: 'nowhere', isEmbedded: false }) };

/**
 * The server's log past `from` (a page's render, logged by Next, says `⨯ Error: …`, then `    at …`
 * lines and the error's fields): no stack trace, and the store's error `said` in one line of ours,
 * which names the page it was (one of `pages`; `named`, at least, among the lines).
 */
function assertOneLine(log: string, said: RegExp, pages: string[], named: string): void {
  assert.doesNotMatch(log, /^\s+at |digest|⨯/m, `no stack trace in the server's log:\n${log}`);
  const lines = log.split('\n').filter((l) => said.test(l));
  assert.ok(lines.length > 0, `the server's log says it:\n${log}`);
  for (const l of lines) {
    assert.match(l, /^stagecraft: a page could not be shown: /, l);
    assert.ok(pages.some((p) => l.endsWith(` (page ${p})`)), `the line names the page: ${l}`);
  }
  assert.ok(lines.some((l) => l.endsWith(` (page ${named})`)), `a line names ${named}:\n${lines.join('\n')}`);
}

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
  const startedLog = app.output().length;
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
    await new Promise((r) => setTimeout(r, 300)); // the last page's line written
    assertOneLine(app.output().slice(startedLog), /is in use by another process: pid \d+.*Stop that process, or give this one its own data directory/, ['/', '/runs', '/runs/run_nope'], '/runs/run_nope');
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

test("a Postgres server that does not answer: the page says so with a 503, the server's log in a line", async () => {
  const closed = await freePort();
  const down = await startApp({ env: { DATABASE_URL: `postgresql://u:p@127.0.0.1:${closed}/stagecraft` }, isStoreless: true });
  try {
    const startedLog = down.output().length;
    for (const p of ['/runs', '/']) {
      const r: Response = await fetch(`${down.url}${p}`);
      const text = await r.text();
      assert.equal(r.status, 503, `${p}: ${r.status}`);
      assert.match(text, /The store is unreachable/, p);
      assert.ok(text.includes(`the Postgres database &quot;stagecraft&quot; on 127.0.0.1:${closed}`), `${p} names the database in use`);
      assert.match(text, /Check that this Postgres server is running and reachable/, p);
    }
    await new Promise((r) => setTimeout(r, 300));
    assertOneLine(down.output().slice(startedLog), /Cannot open the Postgres store at postgresql:\/\/u:\*\*\*@127\.0\.0\.1:\d+\/stagecraft .*Check that the server is running/, ['/runs', '/'], '/runs');
  } finally {
    await down.stop();
  }
});
