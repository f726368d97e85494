// The timeline read a window at a time: a loop run that fails late (bench/loop-bundle.ts) in the
// in-memory store. The whole view and its windows agree visit for visit; the page the run opens on
// holds its failure (in the last visit, far past the first page); the outline names every visit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryHost } from '../testing';
import { makeLoopRun } from '../../../bench/inspector-fixture';
import { RunTimelineView, TIMELINE_PAGE_VISITS } from '../../views';
import { getRunTimeline, getRunTimelineOpening } from './get-run-timeline';

test('windows of a long run: the outline names every visit, a window holds its visits in full, the opening page holds the failure', async () => {
  const host = memoryHost({ cwd: process.cwd(), env: {} });
  const { runId } = await makeLoopRun(host, { loops: 40, failAtVisit: 36 });
  const whole = RunTimelineView.parse(await getRunTimeline(host, runId));
  // work and check 35 times, then work's 36th visit, whose preprocessor refused its n
  assert.equal(whole.outline.length, 71);
  assert.deepEqual(whole.window, { from: 0, to: 71 });
  assert.equal(whole.visits.length, 71);
  assert.deepEqual(whole.outline[70], { id: 'work#36', phase: 'work', visit: 36, status: 'aborted', rounds: 0 });
  assert.deepEqual(whole.failures, ['work#36/pre/0']);
  assert.equal(whole.selected, 'work#36/pre/0');

  const mid = RunTimelineView.parse(await getRunTimeline(host, runId, { from: 20, limit: 7 }));
  assert.deepEqual(mid.window, { from: 20, to: 27 });
  assert.deepEqual(mid.visits, whole.visits.slice(20, 27));
  assert.deepEqual(mid.outline, whole.outline);
  assert.deepEqual(mid.failures, whole.failures);
  // past the end: clamped, empty
  assert.deepEqual((await getRunTimeline(host, runId, { from: 500 })).window, { from: 71, to: 71 });

  const opening = RunTimelineView.parse(await getRunTimelineOpening(host, runId));
  const from = Math.floor(70 / TIMELINE_PAGE_VISITS) * TIMELINE_PAGE_VISITS;
  assert.deepEqual(opening.window, { from, to: 71 });
  assert.equal(opening.visits.at(-1)?.id, 'work#36');
  assert.equal(opening.visits.at(-1)?.pre?.steps[0].label, 'work#36/pre/0 validate failed');
});
