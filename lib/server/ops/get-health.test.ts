// GET /api/health's sandbox part, without the app: the cgroup caps that do not hold here (cgroups.ts
// cgroupStatus) reach it — why none can be made, and the last worker that started outside its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cgroupStatus, reportMissedJoin } from '../../sandbox/cgroups';
import { HealthView } from '../../views';
import type { Host } from '../host';
import { getHealth } from './get-health';

const host = { env: {}, store: { countRuns: async () => 0 } } as unknown as Host;

test('health says which cgroup caps do not hold: none made here, or a worker that started outside its own', async () => {
  const status = cgroupStatus();
  const first = (await getHealth(host)).view;
  assert.equal(first.sandbox.cgroups, status.reason || undefined, 'before any miss: only why none can be made, if so');
  const pidsDir = '/sys/fs/cgroup/pids/stagecraft-test-0-0';
  const cg = { dirs: [pidsDir], procsFile: `${pidsDir}/cgroup.procs`, memory: null, caps: { pidsDir, limits: { maxProcesses: 64, memoryBytes: 2 ** 28 } } };
  reportMissedJoin(cg, 4242, [pidsDir], true);
  const { view } = await getHealth(host);
  HealthView.parse(view);
  assert.match(view.sandbox.cgroups ?? '', /last worker outside its cgroup: \S+ code worker 4242 started outside \/sys\/fs\/cgroup\/pids\/stagecraft-test-0-0 \(joining failed\): its cap of 64 processes and threads does not hold; .*descendants/);
});
