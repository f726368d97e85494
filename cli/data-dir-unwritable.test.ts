// A STAGECRAFT_DATA_DIR that is there but that this process cannot write (another user's folder, a
// read-only mount of a CI artifact): the command must say so, naming the folder and what to do, as it
// does for one it cannot create — not `internal error: Error: EACCES …` and node's stack. As root every
// folder is writable, so there the folder is /sys, which root cannot write either.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { runCli } from './testing/spawn-cli';

const root = mkdtempSync(path.join(tmpdir(), 'sc-unwritable-'));
after(() => {
  chmodSync(path.join(root, 'data'), 0o755);
  rmSync(root, { recursive: true, force: true });
});
const mine = path.join(root, 'data');
mkdirSync(mine);
chmodSync(mine, 0o555);
const dataDir = process.getuid?.() === 0 ? '/sys' : mine;

for (const json of [false, true]) {
  test(`a data dir this process cannot write is said in words, exit 1${json ? ' (--json)' : ''}`, async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    const r = await runCli(['runs', ...(json ? ['--json'] : [])], { env });
    assert.equal(r.code, 1, r.err);
    assert.doesNotMatch(r.err, /internal error|\n\s+at /, r.err);
    assert.match(r.err, new RegExp(`^stagecraft: Cannot write in the embedded store's directory ${dataDir} .*Set STAGECRAFT_DATA_DIR to a writable directory, or DATABASE_URL to a Postgres server\\.\\n$`, 's'));
    if (json) {
      const e = (JSON.parse(r.out) as { error: { code: string; dataDir: string } }).error;
      assert.deepEqual([e.code, e.dataDir], ['store_unavailable', dataDir]);
    }
  });
}
