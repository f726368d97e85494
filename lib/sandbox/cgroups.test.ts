// The per-worker pids cap against real workers: a fork bomb is stopped at the cap inside the step,
// and what it left — even children that left the worker's process group — is gone after close.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createCodeSandbox } from './index';
import { isolationFor, type Isolation } from './isolation';
import { cgroupStatus } from './cgroups';
import { processCommandLines } from './processes';

const status = cgroupStatus();
const pidsDir = status.pids?.dir ?? null;
const skip = pidsDir ? false : `no pids cgroup here: ${status.reason}`;
const BWRAP = isolationFor('auto');
const MODES: [string, Isolation][] = [
  ['unisolated', { kind: 'none', reason: 'the test asks for plain child processes' }],
  ...(BWRAP.kind === 'bwrap' ? [['in bubblewrap', BWRAP] as [string, Isolation]] : []),
];

const dir = mkdtempSync(path.join(tmpdir(), 'sc-pids-'));
const BOMB = path.join(dir, 'bomb.py');
writeFileSync(
  BOMB,
  `import os

def bomb(v):
    forked = 0
    try:
        for _ in range(1000):
            if os.fork() == 0:
                os.setsid()  # out of the worker's process group: only the cgroup still holds it
                os.execvp("sleep", ["sleep", v["marker"]])
            forked += 1
    except (BlockingIOError, OSError) as e:
        return {"forked": forked, "refused": type(e).__name__}
    return {"forked": forked, "refused": None}

def ok(v):
    return {"ok": True}
`,
);

const ownCgroups = () => (pidsDir ? readdirSync(pidsDir).filter((n) => n.startsWith(`stagecraft-${process.pid}-`)) : []);

for (const [mode, isolation] of MODES) {
  test(`a fork bomb stops at the worker's cap, and nothing it forked outlives the sandbox (${mode})`, { skip }, async () => {
    const marker = `3600.${Math.floor(Math.random() * 1e6)}`;
    const sandbox = createCodeSandbox({ isolation, maxProcesses: 48, workDir: dir });
    try {
      const out = (await sandbox.call({ language: 'python', modulePath: BOMB, exportName: 'bomb', input: { marker }, timeoutMs: 20_000 })) as { forked: number; refused: string | null };
      assert.ok(out.refused, `fork was never refused: ${out.forked} children`);
      assert.ok(out.forked > 0 && out.forked < 48, `forked ${out.forked}, not below the cap of 48`);
      assert.equal(ownCgroups().length, 1, 'the worker has a cgroup of its own');
      // the worker is still usable after its children hit the cap
      assert.deepEqual(await sandbox.call({ language: 'python', modulePath: BOMB, exportName: 'ok', input: {}, timeoutMs: 20_000 }), { ok: true });
    } finally {
      await sandbox.close();
    }
    const left = processCommandLines().filter((l) => l.includes(`sleep ${marker}`));
    assert.deepEqual(left, [], 'a forked child outlived the sandbox');
    assert.deepEqual(ownCgroups(), [], 'the worker cgroup is removed');
  });
}

test('a cap below what an interpreter needs is refused up front', () => {
  assert.throws(() => createCodeSandbox({ maxProcesses: 2 }), /maxProcesses must be an integer ≥ 16/);
});
