// Which process drove each part of a run, read from run_started / run_resumed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunEvent } from '../../kernel/ports';
import { runDrivers } from './run-drivers';

const ev = (seq: number, type: string, data: RunEvent['data'] = {}): RunEvent => ({ runId: 'r', seq, type, at: 1000 + seq, data });

test('each driver holds the run from its start or resume to the event before the next one', () => {
  const events = [
    ev(1, 'run_started', { driver: { kind: 'worker', worker: 'a-1-abc', host: 'a', pid: 1 } }),
    ev(2, 'phase_started'),
    ev(3, 'step_completed'),
    ev(4, 'run_resumed', { driver: { kind: 'worker', worker: 'b-2-def', host: 'b', pid: 2 } }),
    ev(5, 'step_completed'),
    ev(6, 'run_resumed', { driver: { kind: 'cli', host: 'c', pid: 3 } }),
    ev(7, 'run_completed'),
  ];
  assert.deepEqual(runDrivers(events), [
    { fromSeq: 1, toSeq: 3, at: 1001, kind: 'worker', worker: 'a-1-abc', host: 'a', pid: 1 },
    { fromSeq: 4, toSeq: 5, at: 1004, kind: 'worker', worker: 'b-2-def', host: 'b', pid: 2 },
    { fromSeq: 6, toSeq: 7, at: 1006, kind: 'cli', worker: null, host: 'c', pid: 3 },
  ]);
});

test('a queued run: its recording drove nothing, its admission is the first stretch', () => {
  const events = [ev(1, 'run_started', { queued: true }), ev(2, 'run_admitted', { waitedMs: 5, driver: { kind: 'worker', worker: 'a-1-abc', host: 'a', pid: 1 } }), ev(3, 'run_completed')];
  assert.deepEqual(runDrivers(events), [{ fromSeq: 2, toSeq: 3, at: 1002, kind: 'worker', worker: 'a-1-abc', host: 'a', pid: 1 }]);
  assert.deepEqual(runDrivers([ev(1, 'run_started', { queued: true })]), [], 'still waiting: no driver yet');
});

test('a run with no events has no driver; a run recorded before drivers were has one of unknown kind', () => {
  assert.deepEqual(runDrivers([]), []);
  assert.deepEqual(runDrivers([ev(1, 'run_started'), ev(2, 'run_completed')]), [{ fromSeq: 1, toSeq: 2, at: 1001, kind: null, worker: null, host: null, pid: null }]);
});
