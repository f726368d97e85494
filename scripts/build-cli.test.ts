// build:cli without the generated Prisma client: it says what to run (db:generate), where esbuild
// failed on the client's import and the command's own hint, "run npm run build:cli", could not help.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
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
