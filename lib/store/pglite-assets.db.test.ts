// PGlite's WebAssembly and file system preloaded (as `stagecraft run` does, pglite-assets.ts): the
// preload yields the compiled module and the file system PGlite ships, and an embedded store opened
// with them keeps what it writes across a restart, as one opened without them does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, it } from 'node:test';
import { openStore } from './open-store';
import { preloadedPgliteAssets, preloadPgliteAssets } from './pglite-assets';
import { resolveInstalled } from '../resolve-installed';
import { ev, makeRun } from './testing/fixtures';
import { tempDir } from './testing/pg-test-db';

const dataDir = tempDir();
after(() => dataDir.remove());

it('nothing is preloaded until asked; then the module and the file system PGlite ships', async () => {
  assert.equal(await preloadedPgliteAssets(), null);
  preloadPgliteAssets();
  const assets = await preloadedPgliteAssets();
  assert.ok(assets, 'preloaded');
  assert.ok(assets.pgliteWasmModule instanceof WebAssembly.Module);
  const exported = WebAssembly.Module.exports(assets.pgliteWasmModule).map((e) => e.name);
  assert.ok(exported.includes('palloc'), 'the module is Postgres');
  const shipped = readFileSync(path.join(path.dirname(resolveInstalled('@electric-sql/pglite')), 'pglite.data'));
  assert.deepEqual(Buffer.from(await assets.fsBundle.arrayBuffer()), shipped);
});

it('an embedded store opened with the preloaded files works and keeps its data across a restart', async () => {
  preloadPgliteAssets();
  const runId = `run-preloaded-${process.pid}`;
  const first = await openStore({ dataDir: dataDir.dir });
  const run = makeRun({ id: runId });
  await first.createRun(run, { events: [ev(run.id, 1)], snapshot: { runId, currentPhase: 'draft', seq: 1, data: {} } });
  await first.close();
  const second = await openStore({ dataDir: dataDir.dir });
  try {
    assert.deepEqual(await second.getRun(runId), run);
    assert.deepEqual((await second.readEvents(runId)).map((e) => e.seq), [1]);
  } finally {
    await second.close();
  }
});
