// A fork's (or replay's) model turns answered from its parent's recording were run, and paid for,
// by the parent: the fork's usage counts every turn, as compare and the CLI do, and says how many
// of them it reused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunFold } from './fold';
import { buildTimeline } from './timeline';
import type { RunEvent } from './ports';
import { EVENT } from './events';

const turn = (round: number, inputTokens: number, extra: RunEvent['data'] = {}): RunEvent['data'] => ({
  kind: 'model',
  phase: 'draft',
  position: `draft/r${round}/model`,
  round,
  model: 'm',
  status: 'ok',
  durationMs: 700,
  output: { text: '', toolCalls: [], finish: round === 3 ? { ok: true } : null, usage: { inputTokens, outputTokens: 10 } },
  ...extra,
});

function forkLog(): RunEvent[] {
  const data: [string, RunEvent['data']][] = [
    [EVENT.runStarted, { skill: 's', skillHash: 'h', model: 'm', input: {} }],
    [EVENT.phaseStarted, { phase: 'draft', visit: 1 }],
    // rounds 1 and 2 answered from the parent's recording (not run: no time taken), round 3 run
    [EVENT.stepCompleted, turn(1, 1000, { recorded: { runId: 'parent', seq: 3 }, durationMs: 0 })],
    [EVENT.stepCompleted, turn(2, 2000, { recorded: { runId: 'parent', seq: 4 }, durationMs: 0 })],
    [EVENT.stepCompleted, turn(3, 300)],
    [EVENT.runCompleted, { output: {}, error: null, report: {} }],
  ];
  return data.map(([type, d], i) => ({ runId: 'fork', seq: i + 1, type, at: 1000 + i, data: d }));
}

test("a fork's usage says how many of the model turns it counts were reused from the recording", () => {
  const t = buildTimeline(new RunFold('fork', forkLog()));
  assert.deepEqual(t.usage, { inputTokens: 3300, outputTokens: 30, latencyMs: 700, cost: null, reused: 2 });
  const rounds = t.visits[0].rounds;
  assert.deepEqual(rounds.map((r) => [r.usage.inputTokens, r.usage.reused]), [[1000, 1], [2000, 1], [300, 0]]);
  // the reused turn's own card still says what it cost where it ran
  assert.deepEqual(rounds[0].model?.usage, { inputTokens: 1000, outputTokens: 10 });
});
