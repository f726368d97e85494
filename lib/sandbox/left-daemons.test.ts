// A daemon a code step starts does not outlive its run with STAGECRAFT_SANDBOX=off either: a python
// step that double-forks a `setsid` child and a node step that starts a detached shell which leaves
// its child behind (both re-parented out of the worker's tree at once). Under bubblewrap they die
// with the sandbox's pid namespace; without it, where no cgroup lists them (a user that may make none:
// as root the test runs the CLI as `nobody`), they ran on after the run — now they are killed when
// the run ends, found by the HOME the sandbox gave its workers. Real processes, a real CLI run. Where
// that user may make cgroups (a host that delegates them to users), each worker's cgroup kills what it
// left at once and the run never reaches that kill: the test is skipped there, saying so.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { attackBundle, nodeStep, pyStep } from '../server/escape/attack-bundle';
import { killPids } from './cgroups';
import { cgroupPlacesAsNonRoot, cliAsNonRoot, skipAsNobody } from './testing/as-nobody';

/** the pids of live processes whose command line is `sleep <seconds>` */
function sleepers(seconds: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() === `sleep ${seconds}`) out.push(Number(pid));
    } catch {
      // gone since the listing
    }
  }
  return out;
}

/** why the test cannot show the kill here: the CLI's user cannot be, or gets cgroups that kill what a step left first */
function skipHere(): string | false {
  if (skipAsNobody) return skipAsNobody;
  const places = cgroupPlacesAsNonRoot();
  if (places === null) return 'could not ask where the CLI run as a user that is not root would make cgroups';
  if (places.length) return `the CLI's user may make cgroups here (${places.join(', ')}): each worker's cgroup kills what it left before the kill this test is about`;
  return false;
}

test('with the sandbox off, what a step daemonized is killed when its run ends', { skip: skipHere() }, () => {
  // seconds no other process sleeps: what the steps start, told apart from everything else
  const py = String(70_000 + (process.pid % 9_000));
  const js = String(80_000 + (process.pid % 9_000));
  const root = mkdtempSync(path.join(tmpdir(), 'sc-left-daemons-'));
  try {
    const dir = attackBundle(root, 'left_daemons', {
      files: {
        'attack.py': `import os
def daemonize(v):
    pid = os.fork()
    if pid == 0:
        if os.fork() == 0:
            os.setsid()
            os.execv("/bin/sleep", ["sleep", "${py}"])
        os._exit(0)
    os.waitpid(pid, 0)
    return {"python": True}
`,
        'attack.mjs': `import { spawnSync } from 'node:child_process';
export function daemonize(v) {
  spawnSync('/bin/sh', ['-c', 'setsid sleep ${js} >/dev/null 2>&1 < /dev/null &'], { stdio: 'ignore' });
  return { ...v, node: true };
}
`,
      },
      steps: `${pyStep('daemonize')}\n${nodeStep('daemonize')}`,
    });
    const r = cliAsNonRoot(['run', dir, '--json'], root, { env: { STAGECRAFT_SANDBOX: 'off' }, input: '{}' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { output: unknown }).output, { python: true, node: true }, 'both steps ran');
    assert.deepEqual([...sleepers(py), ...sleepers(js)], [], 'no process of the run outlived it');
  } finally {
    killPids([...sleepers(py), ...sleepers(js)]);
    rmSync(root, { recursive: true, force: true });
  }
});
