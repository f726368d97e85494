// Where the app says it listens (app.json beside the store's lock): the URL from what `next start` set,
// and the file read back only when it is whole.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { APP_FILE, listeningUrl, readApp } from './app-file';

test('the URL: Next\'s origin once it listens, else PORT on STAGECRAFT_HOST (loopback by default); none for no server', () => {
  assert.equal(listeningUrl({ __NEXT_PRIVATE_ORIGIN: 'http://localhost:4000', PORT: '4000' }), 'http://localhost:4000');
  assert.equal(listeningUrl({ PORT: '3000' }), 'http://127.0.0.1:3000');
  assert.equal(listeningUrl({ PORT: '3000', STAGECRAFT_HOST: '::1' }), 'http://[::1]:3000');
  assert.equal(listeningUrl({}), null);
});

test('app.json is read when it is whole, and not otherwise', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-app-file-'));
  try {
    assert.equal(readApp(dir), null);
    writeFileSync(path.join(dir, APP_FILE), '{"url": "http://127.0.0.1:3000", "pid": 12');
    assert.equal(readApp(dir), null);
    writeFileSync(path.join(dir, APP_FILE), JSON.stringify({ url: 'http://127.0.0.1:3000', pid: '12', startedAt: 1 }));
    assert.equal(readApp(dir), null);
    writeFileSync(path.join(dir, APP_FILE), JSON.stringify({ url: 'http://127.0.0.1:3000', pid: 12, startedAt: 1, extra: true }));
    assert.deepEqual(readApp(dir), { url: 'http://127.0.0.1:3000', pid: 12, startedAt: 1 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
