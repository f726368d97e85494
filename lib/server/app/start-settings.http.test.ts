// The built app started with `next start` directly — as a Docker image starts it, and as `npm start` does after
// its own check — skipped the check of the operator's settings: with STAGECRAFT_MAX_RUNS=0 or
// STAGECRAFT_WORKSPACE_MAX_BYTES=lots it came up healthy, answered every new run with a 400 and resumed none;
// with STAGECRAFT_SANDBOX=bogus its start-up failed and it served anyway. Now the server checks them as it starts
// (instrumentation.ts) and exits 1, naming each as npm start does, before it opens the store.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { failedStart, startApp } from '../http/testing/app-server';

test('next start with bad settings exits 1, naming each, before it opens the store', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-http-settings-'));
  try {
    const env = {
      STAGECRAFT_MAX_RUNS: '0',
      STAGECRAFT_WORKSPACE_MAX_BYTES: 'lots',
      STAGECRAFT_HTTP_PRIVATE: 'DENY',
      STAGECRAFT_PRICES: '{"models": ',
      STAGECRAFT_SANDBOX: 'bogus',
    };
    const failed = await failedStart({ env, dataDir });
    assert.ok(failed, 'the app started');
    assert.match(failed, /^the app exited \(1\) before answering/);
    assert.match(failed, /^stagecraft: STAGECRAFT_MAX_RUNS="0": /m);
    assert.match(failed, /^stagecraft: STAGECRAFT_WORKSPACE_MAX_BYTES="lots": give a size in bytes/m);
    assert.match(failed, /^stagecraft: STAGECRAFT_HTTP_PRIVATE="DENY": it is deny/m);
    assert.match(failed, /^stagecraft: The price table in STAGECRAFT_PRICES is not JSON: .* Write \{"currency": "USD"/m);
    assert.match(failed, /^stagecraft: STAGECRAFT_SANDBOX="bogus": use off, auto/m);
    assert.match(failed, /^stagecraft: not starting: fix or unset the settings above/m);
    assert.doesNotMatch(failed, /Failed to prepare server|start-up failed|store ready/);
    // the store was not opened: the embedded database's folder is as it was
    assert.deepEqual(readdirSync(dataDir), []);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('next start with good settings, a price table among them, starts and serves', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-http-prices-'));
  const prices = path.join(dir, 'prices.json');
  writeFileSync(prices, JSON.stringify({ currency: 'EUR', models: { '*': { input: 1, output: 2 } } }));
  const app = await startApp({ env: { STAGECRAFT_MAX_RUNS: '2', STAGECRAFT_WORKSPACE_MAX_BYTES: '512M', STAGECRAFT_PRICES: prices, STAGECRAFT_SANDBOX: 'auto' } });
  try {
    const health = await fetch(`${app.url}/api/health`);
    assert.equal(health.status, 200, await health.text());
    assert.doesNotMatch(app.output(), /not starting/);
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
