// The kill of what unsandboxed workers left scans /proc again only while it finds processes it has
// not signalled yet: one that stays listed after its SIGKILL (still exiting) does not make it re-scan
// back to back up to its bound, on the server's event loop, at every unsandboxed run's end.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { killLeftBy, LEFT_KILL_ROUNDS } from './left-processes';

test('a process still listed after its kill is killed once, and the scan stops at the next', () => {
  let scans = 0;
  const killed: number[][] = [];
  killLeftBy('/tmp/stagecraft-sandbox-1-x', {
    scan: (entry) => {
      assert.equal(entry, 'HOME=/tmp/stagecraft-sandbox-1-x');
      scans++;
      return [4242];
    },
    kill: (pids) => (killed.push(pids), pids.length),
  });
  assert.deepEqual(killed, [[4242]]);
  assert.equal(scans, 2);
});

test('what forks while it is killed is found by the next scan, and the loop stays bounded', () => {
  let scans = 0;
  let next = 100;
  const killed: number[] = [];
  // each scan lists everything seen so far (still exiting) and one newcomer, forever
  killLeftBy('/h', { scan: () => (scans++, [...killed, next++]), kill: (pids) => (killed.push(...pids), pids.length) });
  assert.equal(scans, LEFT_KILL_ROUNDS);
  assert.equal(killed.length, LEFT_KILL_ROUNDS);
  assert.equal(new Set(killed).size, killed.length, 'no pid was killed twice');
});

test('nothing found: one scan', () => {
  let scans = 0;
  killLeftBy('/h', { scan: () => (scans++, []), kill: () => assert.fail('nothing to kill') });
  assert.equal(scans, 1);
});
