// What a server or CLI says at start about the sandbox (noIsolationWarning): the isolation it lacks,
// and the cgroup caps it cannot make, as GET /api/health reports them (sandbox.cgroups).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { noIsolationWarning, type Isolation } from './isolation';

const bwrap: Isolation = { kind: 'bwrap', bwrap: '/usr/bin/bwrap', seccomp: null };
const none: Isolation = { kind: 'none', reason: 'bubblewrap (bwrap) is not installed' };
const place = { dir: '/sys/fs/cgroup/x', version: 2 as const };
const allCgroups = { pids: place, memory: place, reason: '' };
const noCgroups = { pids: null, memory: null, reason: 'no writable pids or memory cgroup (cgroup v1, or cgroup2 with the controller delegated) in /sys/fs/cgroup' };

test('bubblewrap with its filter and every cgroup: nothing to say', () => {
  assert.equal(noIsolationWarning(bwrap, allCgroups), null);
  assert.equal(noIsolationWarning(bwrap), null);
});

test('no cgroup can be made: said, with what it leaves uncapped, even inside bubblewrap', () => {
  const said = noIsolationWarning(bwrap, noCgroups)!;
  assert.match(said, /no cgroup caps here \(no writable pids or memory cgroup/);
  assert.match(said, /processes and threads a code worker forks are not capped/);
  assert.match(said, /memory limit holds per process only \(rlimit\)/);
  assert.match(said, /GET \/api\/health says so too \(sandbox\.cgroups\)/);
});

test('one controller missing: only its cap is said not to hold', () => {
  const said = noIsolationWarning(bwrap, { pids: place, memory: null, reason: 'no writable memory cgroup (…) in /sys/fs/cgroup' })!;
  assert.match(said, /memory limit holds per process only/);
  assert.doesNotMatch(said, /processes and threads/);
});

test('no sandbox and no cgroups: both said, in one warning', () => {
  const said = noIsolationWarning(none, noCgroups)!;
  assert.match(said, /^code steps run WITHOUT a sandbox \(bubblewrap \(bwrap\) is not installed\)/);
  assert.match(said, /no cgroup caps here/);
  assert.doesNotMatch(noIsolationWarning(none, allCgroups)!, /cgroup/);
});
