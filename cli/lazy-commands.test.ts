// `--help`, `schema` and `validate` answer without the store: run as shipped (bin/stagecraft.mjs →
// dist/) with a store that cannot be opened, every module the process resolves recorded by a
// loader hook. None of Prisma, PGlite, pg, pg-boss, the sandbox's workers or a TypeScript loader
// may be among them; a command that needs the store (`runs`) is the control that the hook sees them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './testing/spawn-cli';
import { tracedCli } from './testing/traced-cli';

const STORE_PACKAGES = /node_modules\/(@prisma\/|@electric-sql\/pglite|pglite-prisma-adapter|pg\/|pg-boss|@opentelemetry\/)/;
const TS_LOADER = /node_modules\/(tsx|esbuild)\//;
const WORKER = /lib\/sandbox\/workers\//;

/** neither store can open: Postgres on a port nothing listens on, a data dir under a file */
async function traced(argv: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-lazy-store-'));
  try {
    const blocker = path.join(dir, 'not-a-dir');
    writeFileSync(blocker, 'a file where the data dir would be');
    return await tracedCli(argv, { ...process.env, DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none', STAGECRAFT_DATA_DIR: path.join(blocker, 'data') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const argv of [['--help'], ['schema'], ['validate', path.join(ROOT, 'examples', 'blog_writer')], ['validate', path.join(ROOT, 'examples', 'summarize'), '--json']]) {
  test(`stagecraft ${argv.map((a) => path.basename(a)).join(' ')} answers without the store, the sandbox or a TypeScript loader`, async () => {
    const r = await traced(argv);
    assert.equal(r.code, 0, r.err);
    assert.ok(r.modules.some((m) => /\/dist\/build-[^/]+\/cli\.mjs$/.test(m)), 'the compiled command ran');
    assert.deepEqual(r.modules.filter((m) => STORE_PACKAGES.test(m)), []);
    assert.deepEqual(r.modules.filter((m) => TS_LOADER.test(m) || /\.m?ts$/.test(m)), []);
    assert.deepEqual(r.modules.filter((m) => WORKER.test(m)), []);
  });
}

test('the control: a command that needs the store loads it (and says it cannot open it)', async () => {
  const r = await traced(['runs']);
  assert.equal(r.code, 1);
  assert.ok(r.modules.some((m) => STORE_PACKAGES.test(m)), 'the hook sees the store packages');
  assert.deepEqual(r.modules.filter((m) => TS_LOADER.test(m) || /\.m?ts$/.test(m)), [], 'compiled: no TypeScript at run time');
});
