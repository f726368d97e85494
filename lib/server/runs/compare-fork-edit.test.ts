// Compare has a row for a fork's edited input: the value it was handed at its point, A's beside B's.
// Before, comparing a fork that edited __post__/1's input with its parent named the lineage and had no
// row showing the edited value (the rows are steps' outputs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunEvent, RunRecord } from '../../kernel/ports';
import { forkEditOf } from './compare-runs';
import { forkEditIndex, forkEditWords } from '../../views';
import { makeRun } from '../../store/testing/fixtures';

const run = (id: string, over: Partial<RunRecord> = {}): RunRecord => makeRun({ id, status: 'completed', ...over });
const marker = (runId: string, data: RunEvent['data']): RunEvent => ({ runId, seq: 7, type: 'fork_point_reached', at: 0, data });

test("a fork's edited step input is a row of compare: A's value beside B's, whichever side is the fork", () => {
  const parent = run('run_a');
  const fork = run('run_b', { kind: 'fork', parentRunId: 'run_a', forkPoint: '__post__/1/input' });
  const events = [marker('run_b', { position: '__post__/1', target: 'input', from: 'run_a', recorded: { n: 1 }, edited: { n: 50 } })];
  assert.deepEqual(forkEditOf(parent, fork, [], events), { position: '__post__/1/input', side: 'B', a: { n: 1 }, b: { n: 50 } });
  assert.deepEqual(forkEditOf(fork, parent, events, []), { position: '__post__/1/input', side: 'A', a: { n: 50 }, b: { n: 1 } });
  assert.equal(forkEditWords({ side: 'B' }), "input, edited at the fork: B's value is the fork's edit, A's what A recorded there");
  // a rerun (no edit), an edited step output (that step's own row) and two unrelated runs: none
  const rerun = [marker('run_b', { position: '__post__/1', target: 'rerun', from: 'run_a', recorded: null, edited: null })];
  assert.equal(forkEditOf(parent, fork, [], rerun), null);
  const output = [marker('run_b', { position: 'draft/r1/model', target: 'output', from: 'run_a', recorded: {}, edited: { finish: {} } })];
  assert.equal(forkEditOf(parent, fork, [], output), null);
  assert.equal(forkEditOf(parent, run('run_c'), [], events), null);
});

test("the row goes before the step rows at the fork point (the CLI's and the page's order)", () => {
  const rows = ['draft/r1/model', '__post__/0', '__post__/1', '__post__/2'].map((position) => ({ position }));
  assert.equal(forkEditIndex(rows, '__post__/1/input'), 2);
  assert.equal(forkEditIndex(rows, '__post__'), 1);
  assert.equal(forkEditIndex(rows, 'draft'), 0);
  assert.equal(forkEditIndex(rows, 'review'), 0, 'no row there: on top');
});
