// A folder of a run's workspace whose owner's read or search permission code took (`chmod 000 big`):
// code runs as the host's user, so the quota's walk could not open the folder and passed it over as
// removed — everything in it uncounted. The walk gives the owner read and search back (through the
// folder's own descriptor, never a link) and counts what it holds. A real CLI run as a user that is not
// root (root reads any folder whatever its mode: as root the test runs the CLI as `nobody`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { attackBundle, pyStep } from '../server/escape/attack-bundle';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;

test('a step that hides 10 MB in a folder it made unreadable fails on a 2 MB quota', { skip: isRoot && !hasSetpriv ? 'root without setpriv: no other user to run as' : false }, () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sc-unreadable-'));
  try {
    const dir = attackBundle(root, 'unreadable_filler', {
      files: {
        'attack.py': `import os
def fill(v):
    os.makedirs("hidden/deep", exist_ok=True)
    for i in range(10):
        with open("hidden/deep/" + str(i), "wb") as f: f.write(os.urandom(1 << 20))
    os.chmod("hidden/deep", 0o300)
    os.chmod("hidden", 0)
    return {"wrote_mb": 10}
`,
      },
      steps: pyStep('fill'),
    });
    if (isRoot) {
      // dist/ rebuilt, if the sources changed, by this user: nobody may not write it
      spawnSync(process.execPath, ['bin/stagecraft.mjs', '--version']);
      chmodSync(root, 0o755);
      spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, root]);
      chownSync(root, NOBODY, NOBODY);
    }
    const cli = [process.execPath, path.resolve('bin/stagecraft.mjs'), 'run', dir, '--json'];
    const [cmd, ...args] = isRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...cli] : cli;
    const r = spawnSync(cmd, args, {
      encoding: 'utf8',
      env: { ...process.env, HOME: root, STAGECRAFT_DATA_DIR: path.join(root, 'data'), STAGECRAFT_WORKSPACE_MAX_BYTES: '2M' },
    });
    assert.ok(r.stdout.trim(), r.stderr);
    const out = JSON.parse(r.stdout) as { status: string; error: { message: string } | null };
    assert.notEqual(out.status, 'completed', `10 MB in a 2 MB workspace: ${r.stdout.slice(0, 400)}`);
    assert.match(out.error?.message ?? '', /python function fill in attack\.py: the run's workspace is past its quota, holding more than 2097152 bytes on disk/);
    assert.equal(r.status, 1);
  } finally {
    spawnSync('chmod', ['-R', 'u+rwx', root]);
    rmSync(root, { recursive: true, force: true });
  }
});
