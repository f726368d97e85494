// The scrubber's line for an event quotes the error or reason it is about: the state view keeps a
// line cut to a few words (`summary`) and, when that cut something, the whole line (`whole`) that
// the page shows, so a long error is read to its end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunFold } from './fold';
import { stateView } from './inspect';
import type { RunEvent } from './ports';
import { RunStateView } from '../views/inspector';

const ev = (seq: number, type: string, data: RunEvent['data']): RunEvent => ({ runId: 'r', seq, type, at: 1000 + seq, data });

test("a long error's event line is kept whole beside the short one; a short line has no second copy", () => {
  const message = `the model could not satisfy its contract after 3 rounds: /summary must be a string, /score must be <= 10, /tags must have at most 5 items`;
  const events = [
    ev(1, 'run_started', { skill: 's', model: 'm', input: {} }),
    ev(2, 'phase_started', { phase: 'draft', visit: 1 }),
    ev(3, 'run_failed', { output: null, error: { code: 'output_invalid', message, phase: 'draft' }, report: {} }),
  ];
  const fold = new RunFold('r', events);
  const end = RunStateView.parse(stateView(fold, 3));
  assert.ok(end.change.summary.endsWith('…'), end.change.summary);
  assert.equal(end.change.whole, `the run failed: ${message}`);
  const started = RunStateView.parse(stateView(fold, 2));
  assert.equal(started.change.whole, undefined);
  assert.equal(started.change.summary, 'phase draft started');
});
