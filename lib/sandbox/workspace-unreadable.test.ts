// A folder of a run's workspace whose owner's read or search permission code took (`chmod 000 big`):
// code runs as the host's user, so the quota's walk could not open the folder and passed it over as
// removed — everything in it uncounted — and the sweep could not empty it, so the workspace stayed on
// disk for ever. The walk gives the owner read and search back (through the folder's own descriptor,
// never a link) and counts what it holds; the sweep gives the owner its access back and removes it.
// Real CLI runs as a user that is not root (root reads any folder whatever its mode: as root the test
// runs the CLI as `nobody`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { attackBundle, pyStep } from '../server/escape/attack-bundle';
import { cliAsNonRoot, skipAsNobody } from './testing/as-nobody';

const skip = skipAsNobody;

/** `stagecraft run` of a skill whose step writes `mb` MB under a folder it then makes unreadable, as a user that is not root */
function runHiding(mb: number, env: Record<string, string>): { out: { runId: string; status: string; error: { message: string } | null }; status: number | null; root: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'sc-unreadable-'));
  const dir = attackBundle(root, 'unreadable_filler', {
    files: {
      'attack.py': `import os
def fill(v):
    os.makedirs("hidden/deep", exist_ok=True)
    for i in range(${mb}):
        with open("hidden/deep/" + str(i), "wb") as f: f.write(os.urandom(1 << 20))
    os.chmod("hidden/deep", 0o300)
    os.chmod("hidden", 0)
    return {"wrote_mb": ${mb}}
`,
    },
    steps: pyStep('fill'),
  });
  const r = cliAsNonRoot(['run', dir, '--json'], root, { env });
  assert.ok(r.stdout.trim(), r.stderr);
  return { out: JSON.parse(r.stdout), status: r.status, root };
}

function removeAll(root: string): void {
  spawnSync('chmod', ['-R', 'u+rwx', root]);
  rmSync(root, { recursive: true, force: true });
}

test('a step that hides 10 MB in a folder it made unreadable fails on a 2 MB quota', { skip }, () => {
  const { out, status, root } = runHiding(10, { STAGECRAFT_WORKSPACE_MAX_BYTES: '2M' });
  try {
    assert.notEqual(out.status, 'completed', `10 MB in a 2 MB workspace: ${JSON.stringify(out).slice(0, 400)}`);
    assert.match(out.error?.message ?? '', /python function fill in attack\.py: the run's workspace is past its quota, holding more than 2097152 bytes on disk/);
    assert.equal(status, 1);
  } finally {
    removeAll(root);
  }
});

test('at retention 0 the workspace of a run that left an unreadable folder is removed after the command', { skip }, () => {
  const { out, status, root } = runHiding(1, { STAGECRAFT_WORKSPACE_RETENTION: '0' });
  try {
    assert.equal(status, 0, JSON.stringify(out).slice(0, 400));
    const workspaces = path.join(root, 'data', 'workspaces');
    assert.equal(existsSync(path.join(workspaces, out.runId)), false, `still there: ${readdirSync(workspaces).join(', ')}`);
  } finally {
    removeAll(root);
  }
});
