// A data dir whose database files this process cannot read and write — made by a first command run
// with sudo, or copied as root — while the folder itself takes the lock. PGlite says only "failed to
// initialize properly" (or node an EACCES), and the command said the data dir was damaged or of another
// version: move it aside and start afresh, which loses a sound store's runs from view. It must name the
// file it cannot use and say whose it is to fix. As root the command is run as `nobody` (root reads and
// writes every file); as another user, the database folder is made unreadable.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { BIN, ROOT, runCli, tempCliEnv } from './testing/spawn-cli';
// as root: whether nobody can run this checkout's CLI (not from a clone in a private temp folder, as CI's mktemp -d)
import { skipAsNobody } from '../lib/sandbox/testing/as-nobody';

const t = tempCliEnv('sc-data-dir-theirs-');
const pgdata = path.join(t.dataDir, 'pglite');
after(() => {
  spawnSync('chmod', ['-R', 'u+rwX', t.dir]);
  t.cleanup();
});
const isRoot = process.getuid?.() === 0;
const hasRunuser = spawnSync('runuser', ['--help']).status === 0;
test("a data dir whose database is another user's is said as that, not as a damaged one to move aside", { skip: isRoot ? (hasRunuser ? skipAsNobody : 'root without runuser') : false }, async () => {
  const made = await runCli(['runs'], { env: t.env }); // the store made (and dist/ fresh) as this user
  assert.equal(made.code, 0, made.err);
  let r: { code: number | null; err: string };
  if (isRoot) {
    chmodSync(t.dir, 0o755);
    chmodSync(t.dataDir, 0o777); // the lock can be taken; the files in pglite/ stay root's
    const ran = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, BIN, 'runs'], { cwd: ROOT, env: t.env, encoding: 'utf8' });
    r = { code: ran.status, err: ran.stderr };
  } else {
    chmodSync(pgdata, 0o000);
    r = await runCli(['runs'], { env: t.env });
  }
  assert.equal(r.code, 1, r.err);
  assert.doesNotMatch(r.err, /internal error|\n\s+at |move it aside/, r.err);
  assert.match(r.err, new RegExp(`^stagecraft: Cannot open the embedded store in ${t.dataDir}: .*\\. ${pgdata}\\S* cannot be read and written by this user \\(uid \\d+\\): .*Give them to this user \\(chown -R\\)`, 's'));
});

test('a damaged data dir of this user is still said as damaged', async () => {
  spawnSync('chmod', ['-R', 'u+rwX', t.dir]);
  // the store is made here too: the test before skips where nobody cannot run this checkout
  const made = await runCli(['runs'], { env: t.env });
  assert.equal(made.code, 0, made.err);
  unlinkSync(path.join(pgdata, 'global', 'pg_control'));
  const r = await runCli(['runs'], { env: t.env });
  assert.equal(r.code, 1, r.err);
  assert.match(r.err, /^stagecraft: Cannot open the embedded store in .*move it aside \(STAGECRAFT_DATA_DIR\) and start afresh\.\n$/s, r.err);
  assert.doesNotMatch(r.err, /cannot be read and written/);
});
