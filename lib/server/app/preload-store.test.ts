// The boot's first step: on the embedded store, PGlite's files are read and its WebAssembly compiled
// before the store opens; on Postgres nothing of PGlite is touched.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { preloadedPgliteAssets } from '../../store/pglite-assets';
import { preloadStore } from './preload-store';

test('on Postgres nothing is preloaded; on the embedded store PGlite is read and compiled ahead of the opening', async () => {
  assert.equal(preloadStore({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/x' }), false);
  assert.equal(await preloadedPgliteAssets(), null, 'a process on Postgres never reads PGlite');
  assert.equal(preloadStore({}), true);
  const assets = await preloadedPgliteAssets();
  assert.ok(assets?.pgliteWasmModule instanceof WebAssembly.Module, 'the WebAssembly is compiled');
  assert.ok((await assets.fsBundle.arrayBuffer()).byteLength > 1_000_000, "the file system's bytes are read");
});
