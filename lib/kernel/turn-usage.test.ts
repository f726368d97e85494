// A model endpoint that answers without `usage` used tokens it did not count: the run's usage says
// how many turns did not report (of how many), sums only the turns that did, and leaves the cost
// unknown — never 0 tokens, never a cost that leaves turns out. A model script without `usage`
// spent nothing (no model was called), and an old log folds as it was recorded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunFold } from './fold';
import { buildTimeline } from './timeline';
import { priceFor } from './prices';
import { isUsageUnreported } from './turn-usage';
import { compareLogs } from './compare';
import { deps, plan } from './testing';
import { startRun } from './runner';
import type { ModelPort } from './ports';
import type { RunEvent } from './ports';
import { EVENT } from './events';
import { RunItemView, RunTimelineView } from '../views/inspector';
import { itemView } from './inspect';

type Turn = { model: string; usage?: { inputTokens: number; outputTokens: number }; edited?: true };

/** one visit of phase draft, a round per turn, the last one finishing */
function log(turns: Turn[]): RunEvent[] {
  const data: [string, RunEvent['data']][] = [
    [EVENT.runStarted, { skill: 's', skillHash: 'h', model: turns[0]?.model ?? 'openai:m', input: {} }],
    [EVENT.phaseStarted, { phase: 'draft', visit: 1 }],
    ...turns.map((t, i): [string, RunEvent['data']] => [
      EVENT.stepCompleted,
      {
        kind: 'model',
        phase: 'draft',
        position: `draft/r${i + 1}/model`,
        round: i + 1,
        model: t.model,
        ...(t.edited ? { edited: true, recorded: { runId: 'parent', seq: 3 } } : {}),
        status: 'ok',
        durationMs: 100,
        output: { text: '', toolCalls: [], finish: i === turns.length - 1 ? { ok: true } : null, ...(t.usage ? { usage: t.usage } : {}) },
      },
    ]),
    [EVENT.runCompleted, { output: {}, error: null, report: {} }],
  ];
  return data.map(([type, d], i) => ({ runId: 'r', seq: i + 1, type, at: 1000 + i, data: d }));
}

const price = priceFor({ currency: 'USD', models: { '*': { input: 1, output: 2 } } }, 'openai:m');
const timelineOf = (turns: Turn[], priced = false) => {
  const t = buildTimeline(new RunFold('r', log(turns)), { price: priced ? price : null });
  RunTimelineView.parse(t);
  return t;
};

test('a mixed run: the reported turns summed, the others counted as not reported, the cost unknown', () => {
  const t = timelineOf([{ model: 'openai:m', usage: { inputTokens: 1000, outputTokens: 100 } }, { model: 'openai:m' }, { model: 'openai:m' }], true);
  assert.deepEqual(t.usage, { inputTokens: 1000, outputTokens: 100, latencyMs: 300, cost: null, reused: 0, tokensNotReported: { turns: 2, of: 3, reportedCost: (1000 * 1 + 100 * 2) / 1e6 } });
  // the visit sums as the run does; each round says its own
  assert.deepEqual(t.visits[0].usage, t.usage);
  const rounds = t.visits[0].rounds;
  assert.deepEqual(rounds[0].usage, { inputTokens: 1000, outputTokens: 100, latencyMs: 100, cost: 0.0012, reused: 0 });
  assert.deepEqual(rounds[1].usage, { inputTokens: 0, outputTokens: 0, latencyMs: 100, cost: null, reused: 0, tokensNotReported: { turns: 1, of: 1, reportedCost: 0 } });
  assert.equal(rounds[1].model?.usage, null);
  assert.equal(rounds[1].model?.cost, null);
});

test('no turn reported: no tokens summed, all turns said, no cost; unpriced, no reported cost either', () => {
  const t = timelineOf([{ model: 'openai:m' }, { model: 'openai' }]);
  assert.deepEqual(t.usage, { inputTokens: 0, outputTokens: 0, latencyMs: 200, cost: null, reused: 0, tokensNotReported: { turns: 2, of: 2, reportedCost: null } });
});

test('every turn reported, or a script that gives no usage: the usage reads as it always did', () => {
  const reported = timelineOf([{ model: 'openai:m', usage: { inputTokens: 10, outputTokens: 1 } }, { model: 'openai:m', usage: { inputTokens: 0, outputTokens: 0 } }], true);
  assert.deepEqual(reported.usage, { inputTokens: 10, outputTokens: 1, latencyMs: 200, cost: 12 / 1e6, reused: 0 });
  const scripted = timelineOf([{ model: 'scripted:model.yaml' }, { model: 'scripted:model.yaml' }], true);
  assert.deepEqual(scripted.usage, { inputTokens: 0, outputTokens: 0, latencyMs: 200, cost: null, reused: 0 });
});

test("a fork's turn edited at its point, without usage, is no endpoint's: its tokens read as before", () => {
  const t = timelineOf([{ model: 'openai:m', edited: true }, { model: 'openai:m', usage: { inputTokens: 7, outputTokens: 1 } }]);
  assert.equal(t.usage.tokensNotReported, undefined);
  assert.deepEqual([t.usage.inputTokens, t.usage.outputTokens], [7, 1]);
  assert.equal(compareLogs(log([{ model: 'openai:m', edited: true }]), log([{ model: 'openai:m', edited: true }])).a.tokensNotReported, undefined);
});

test('what counts as not reported: an endpoint turn without usage', () => {
  assert.equal(isUsageUnreported({ model: 'openai:gpt-4o-mini' }, {}), true);
  assert.equal(isUsageUnreported({ model: 'openai' }, {}), true);
  assert.equal(isUsageUnreported({ model: 'openai:m' }, { usage: { inputTokens: 0, outputTokens: 0 } }), false);
  assert.equal(isUsageUnreported({ model: 'scripted:model.yaml' }, {}), false);
  assert.equal(isUsageUnreported({ model: 'openai-like' }, {}), false);
  assert.equal(isUsageUnreported({ model: 'openai:m' }, undefined), false);
  // the turn a fork was handed at its point: no model answered it
  assert.equal(isUsageUnreported({ model: 'openai:m', edited: true }, {}), false);
});

test('compare: each side sums the reported turns and says how many did not report; a turn that did not is marked', () => {
  const a = log([{ model: 'openai:m', usage: { inputTokens: 1000, outputTokens: 100 } }, { model: 'openai:m' }, { model: 'openai:m' }]);
  const b = log([{ model: 'scripted:model.yaml', usage: { inputTokens: 5, outputTokens: 1 } }, { model: 'scripted:model.yaml' }, { model: 'scripted:model.yaml' }]);
  const c = compareLogs(a, b);
  assert.deepEqual([c.a.tokens, c.a.tokensNotReported], [{ input: 1000, output: 100 }, { turns: 2, of: 3 }]);
  assert.deepEqual([c.b.tokens, c.b.tokensNotReported], [{ input: 5, output: 1 }, undefined]);
  assert.deepEqual(c.rows.map((r) => [r.a?.tokens ?? null, r.a?.tokensNotReported ?? false, r.b?.tokensNotReported ?? false]), [
    [{ input: 1000, output: 100 }, false, false],
    [null, true, false],
    [null, true, false],
  ]);
});

test("a replay's turns reused from the recording keep the model that answered them: an endpoint's unreported turn reads so in the replay too", async () => {
  const endpoint: ModelPort = { name: 'openai:m', invoke: async () => ({ text: '', toolCalls: [], finish: { n: 1 } }) };
  const d = deps(endpoint);
  const parent = await startRun(plan(), d, { input: {}, skillText: '', runId: 'parent' });
  assert.equal(parent.status, 'completed');
  const events = await d.store.readEvents('parent');
  const replayPort: ModelPort = { name: 'replay:parent', invoke: async () => assert.fail('a replay calls no model') };
  const replay = await startRun(plan(), { ...d, model: replayPort }, { input: {}, skillText: '', derivation: { mode: 'replay', parentRunId: 'parent', events } });
  assert.equal(replay.status, 'completed');
  const t = buildTimeline(new RunFold(replay.runId, await d.store.readEvents(replay.runId)));
  assert.deepEqual(t.usage, { inputTokens: 0, outputTokens: 0, latencyMs: 0, cost: null, reused: 1, tokensNotReported: { turns: 1, of: 1, reportedCost: null } });
});

test("a turn's Details say its tokens as the totals do: an endpoint's without usage not reported, a script's or an edited turn's none used", () => {
  const turnOf = (turns: Turn[]) => {
    // as a recorded step holds it: its definition (what the request is rebuilt from)
    const events = log(turns).map((e) => (e.seq === 3 ? { ...e, data: { ...e.data, definition: { tools: [] } } } : e));
    const fold = new RunFold('r', events);
    const item = itemView(fold, 3);
    assert.ok(item?.kind === 'model');
    RunItemView.parse(item);
    return item;
  };
  assert.equal(turnOf([{ model: 'openai:m' }]).tokensNotReported, true);
  assert.equal(turnOf([{ model: 'scripted:model.yaml' }]).tokensNotReported, false);
  assert.equal(turnOf([{ model: 'openai:m', edited: true }]).tokensNotReported, false);
  assert.equal(turnOf([{ model: 'openai:m', usage: { inputTokens: 3, outputTokens: 1 } }]).tokensNotReported, false);
});
