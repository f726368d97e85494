// The app's boot (boot.ts) on the embedded store, as Next's start-up hook calls it: it returns
// before the store is open (the server answers meanwhile), the skills list a request asks for while
// it goes on waits for the example skills and holds every one of them, and when the store cannot be
// opened the home page's note says why instead of the examples going missing silently.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { closeStore } from '../../store';
import { stopSpawner } from '../../sandbox/spawner';
import { exampleBundles } from '../skills/load-examples';
import { examplesDir } from './app-host';
import { boot, examplesLoaded } from './boot';
import { listAppSkills } from './list-app-skills';

const root = mkdtempSync(path.join(tmpdir(), 'sc-boot-'));
const saved = { dataDir: process.env.STAGECRAFT_DATA_DIR, url: process.env.DATABASE_URL };

/** a fresh boot of this process: the state of the last one and its store are dropped */
async function reset(dataDir: string): Promise<void> {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('stagecraft.boot')];
  await closeStore();
  process.env.STAGECRAFT_DATA_DIR = dataDir;
}

before(() => {
  delete process.env.DATABASE_URL;
});
after(async () => {
  await closeStore();
  await stopSpawner();
  process.env.STAGECRAFT_DATA_DIR = saved.dataDir;
  if (saved.url !== undefined) process.env.DATABASE_URL = saved.url;
  rmSync(root, { recursive: true, force: true });
});

describe('the app boot', () => {
  it('returns before the store is open; a skills list asked for meanwhile waits for the examples and holds them all', async () => {
    await reset(path.join(root, 'data'));
    let isDone = false;
    const done = boot().then(() => (isDone = true));
    assert.equal(isDone, false, 'boot() hands back at once: the start-up goes on in the background');
    // asked at once, as the first request after the server listens
    const { skills, examples } = await listAppSkills();
    assert.deepEqual(examples, { ok: true, names: exampleBundles(examplesDir()) });
    const names = skills.map((s) => s.name);
    for (const example of exampleBundles(examplesDir())) assert.ok(names.includes(example), `${example} is listed (${names.join(', ')})`);
    await done;
    assert.equal(boot(), boot(), 'a second call is the same start-up, not another');
  });

  it('a store that cannot be opened: the examples load says why, and the start-up does not throw', async () => {
    const notADir = path.join(root, 'a-file');
    writeFileSync(notADir, 'not a directory');
    await reset(path.join(notADir, 'data'));
    await boot(); // settles: the failure is logged, not thrown at Next
    const load = await examplesLoaded();
    assert.equal(load?.ok, false);
    assert.match((load as { message: string }).message, /Cannot create the embedded store's directory .*a-file\/data/);
  });
});
