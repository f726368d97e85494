// A descriptor the server inherited from whoever started it (a shell's `exec 100<>file`, a supervisor's
// socket, a parent's pipe) is not the run's: a code step must not find it open. Node and libuv open
// their own descriptors close-on-exec, but one inherited without that flag passes into every child —
// through bubblewrap too, which keeps the descriptors it is given — and in the worker it is a way out
// of the sandbox: the host file it names read and written by its number. Real CLI runs (embedded
// store), real workers, with and without bubblewrap.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import { attackBundle, nodeStep, pyStep } from '../server/escape/attack-bundle';
import { isolationFor } from './isolation';

/** where the inherited descriptor sits in the CLI process (past the few a fresh node itself uses) */
const INHERITED_FD = 100;

const ATTACK_PY = `import os
def grab(v):
    found = {}
    for name in os.listdir("/proc/self/fd"):
        n = int(name)
        if n < 5: continue
        try:
            os.pwrite(n, b"written by a step", 0)
            found[name] = "written"
        except OSError as e:
            found[name] = repr(e)
    return {"py": found}
`;
const ATTACK_MJS = `import { readdirSync, writeSync } from 'node:fs';
export function grab(v) {
  const found = {};
  for (const name of readdirSync('/proc/self/fd')) {
    const n = Number(name);
    if (n < 5) continue;
    try { writeSync(n, 'written by a step', 0); found[name] = 'written'; } catch (e) { found[name] = String(e.code); }
  }
  return { ...v, node: found };
}
`;

for (const sandbox of ['auto', 'off'] as const) {
  const label = sandbox === 'auto' ? `STAGECRAFT_SANDBOX=auto: ${isolationFor('auto').kind}` : 'STAGECRAFT_SANDBOX=off';
  it(`a descriptor the CLI inherited is closed before a step's code runs, python and node (${label})`, () => {
    const root = mkdtempSync(path.join(tmpdir(), 'sc-inherited-fd-'));
    const victim = path.join(root, 'host-file.txt');
    writeFileSync(victim, 'the host keeps this');
    const dir = attackBundle(root, 'fd_grabber', { files: { 'attack.py': ATTACK_PY, 'attack.mjs': ATTACK_MJS }, steps: [pyStep('grab'), nodeStep('grab')].join('\n') });
    const fd = openSync(victim, 'r+');
    try {
      const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe', ...Array<'ignore'>(INHERITED_FD - 3).fill('ignore'), fd];
      const r = spawnSync(process.execPath, ['bin/stagecraft.mjs', 'run', dir, '--json'], {
        encoding: 'utf8',
        stdio,
        env: { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, 'data'), STAGECRAFT_SANDBOX: sandbox },
      });
      assert.equal(r.status, 0, `${r.stderr}\n${r.stdout}`);
      const out = (JSON.parse(r.stdout) as { output: { py: Record<string, string>; node: Record<string, string> } }).output;
      assert.ok(out.py && out.node, 'both attacks ran and reported');
      assert.equal(readFileSync(victim, 'utf8'), 'the host keeps this', `a step wrote the host file through an inherited descriptor: ${JSON.stringify(out)}`);
      assert.ok(!(String(INHERITED_FD) in out.py) && !(String(INHERITED_FD) in out.node), `the inherited descriptor was open in a worker: ${JSON.stringify(out)}`);
    } finally {
      closeSync(fd);
      rmSync(root, { recursive: true, force: true });
    }
  });
}
