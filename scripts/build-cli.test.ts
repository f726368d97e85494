// build:cli without the generated Prisma client: it says what to run (db:generate), where esbuild
// failed on the client's import and the command's own hint, "run npm run build:cli", could not help.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../cli/testing/spawn-cli';

type BuildCli = { requireGeneratedClient(dir?: string): void; PRISMA_CLIENT: string };
const load = async () => (await import(pathToFileURL(path.join(ROOT, 'scripts', 'build-cli.mjs')).href)) as BuildCli;

const bare = mkdtempSync(path.join(tmpdir(), 'sc-build-cli-'));
after(() => rmSync(bare, { recursive: true, force: true }));

test('a checkout without the generated Prisma client is told to run db:generate, not build:cli again', async () => {
  const { requireGeneratedClient, PRISMA_CLIENT } = await load();
  assert.throws(
    () => requireGeneratedClient(bare),
    (e: Error & { hint?: string }) => {
      assert.equal(e.message, `the Prisma client is not generated (${PRISMA_CLIENT} is missing)`);
      assert.equal(e.hint, `Run \`npm run db:generate\` in ${bare} (npm install runs it), then the command again.`);
      return true;
    },
  );
  // this checkout has it (postinstall generated it): no error
  requireGeneratedClient(ROOT);
  requireGeneratedClient();
});

test("builds made at once settle: a build already there keeps its folder, and another build's folder gone meanwhile is passed over", async () => {
  const { settle, removeOldBuilds } = (await import(pathToFileURL(path.join(ROOT, 'scripts/build-cli.mjs')).href)) as {
    settle: (staging: string, target: string) => void;
    removeOldBuilds: (dir: string, keep: string, now?: number, entries?: string[]) => void;
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-dist-'));
  try {
    const made = (name: string, file: string) => {
      mkdirSync(path.join(dir, name));
      writeFileSync(path.join(dir, name, file), name);
    };
    // another build of the same sources finished first: this one's staging goes, that build stays whole
    made('build-abc', 'cli.mjs');
    made('staging-1-x', 'cli.mjs');
    settle(path.join(dir, 'staging-1-x'), path.join(dir, 'build-abc'));
    assert.deepEqual(readdirSync(dir).sort(), ['build-abc']);
    assert.equal(readFileSync(path.join(dir, 'build-abc', 'cli.mjs'), 'utf8'), 'build-abc');
    // none there: the staging becomes the build
    made('staging-2-y', 'cli.mjs');
    settle(path.join(dir, 'staging-2-y'), path.join(dir, 'build-def'));
    assert.deepEqual(readdirSync(dir).sort(), ['build-abc', 'build-def']);
    // a staging listed, then renamed by its build before it was looked at: no ENOENT
    const later = Date.now() + 60 * 60 * 1000;
    removeOldBuilds(dir, 'build-def', later, ['staging-3-gone', ...readdirSync(dir)]);
    assert.deepEqual(readdirSync(dir), ['build-def'], 'the old build went, the kept one stayed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a build's folder is readable and enterable by every user (a CLI built by root's npm install runs for others)", async () => {
  const { stagingFolder } = (await import(pathToFileURL(path.join(ROOT, 'scripts/build-cli.mjs')).href)) as { stagingFolder: (dist: string) => string };
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-dist-'));
  try {
    const staging = stagingFolder(dir);
    assert.equal(path.dirname(staging), dir);
    assert.match(path.basename(staging), new RegExp(`^staging-${process.pid}-`));
    assert.equal(statSync(staging).mode & 0o777, 0o755);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
