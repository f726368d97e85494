// A replay's own page says how the replay went: identical, or where it first diverged and how many
// steps did — as `stagecraft replay` and the Replay button say. Before, it said only "This run is a
// replay of …": a diverged replay read "completed" like an identical one.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ranTo } from './skill-runs';
import { shotOf } from './shots';

// one phase whose finish the postprocessor's node step marks: a new step.mjs changes only that step's output
const SKILL_MD = [
  '---',
  'name: replay_verdict',
  'entry: answer',
  'graph: { answer: [] }',
  'output_schema: { type: object }',
  'postprocessor: { output_schema: { type: object }, steps: [{ type: node, module: ./step.mjs, function: step, pure: true }] }',
  '---',
  'You answer.',
  '',
].join('\n');
const MODEL = 'turns:\n  - phase: answer\n    finish: { n: 1 }\n';

async function saved(request: APIRequestContext, stepValue: string): Promise<void> {
  const files = { 'skill.md': SKILL_MD, 'model.yaml': MODEL, 'step.mjs': `export function step() { return { mark: ${stepValue} }; }\n` };
  const res = await request.post('/api/skills/replay_verdict/versions', { data: { files } });
  expect(res.status(), await res.text()).toBe(201);
}

async function replayOf(request: APIRequestContext, runId: string): Promise<string> {
  const res = await request.post(`/api/runs/${runId}/replay`, { data: {} });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { replayRunId: string }).replayRunId;
}

test("a replay's page says it replayed identical, or where it diverged", async ({ page, request }) => {
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: 'replay_verdict' } })).status());
  await saved(request, '1');
  const parent = await ranTo(request, 'replay_verdict', {}, 'completed');
  const same = await replayOf(request, parent);
  await saved(request, '2');
  const changed = await replayOf(request, parent);

  const lineage = page.getByRole('region', { name: 'Replays and forks' });
  await page.goto(`/runs/${same}`);
  await expect(lineage).toContainText(`This run is a replay of ${parent}. Compare with it. It replayed identical: every step did as recorded.`);
  await page.goto(`/runs/${changed}`);
  await expect(lineage).toContainText(`This run is a replay of ${parent}. Compare with it. It diverged, first at __post__/0: output changed (2 divergences).`);
  await shotOf(lineage, 'test-results/screens/replay-verdict.png');
});
