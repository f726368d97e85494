// Compare: a fork that edited a step nested in an iterate (A), against a fork that answered that
// iterate whole from the recording (B). A's nested steps are not compared — B never ran them one by
// one — and A's card says so: how many, inside which step B answered whole, and that A's edit is
// among them. Before, it said B had answered "them" (the nested steps) whole.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ranTo } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

const SKILL_MD = `---
name: nested_note
description: Two checks of each item, then one of the whole
entry: answer
graph:
  answer: []
output_schema: { type: object }
postprocessor:
  output_schema: { type: object }
  steps:
    - type: iterate
      over: items
      into: checked
      steps:
        - { type: validate, schema: { type: object } }
        - { type: validate, schema: { type: object } }
    - { type: validate, schema: { type: object } }
---
You answer.

## answer
Answer.
`;

async function forked(request: APIRequestContext, runId: string, data: Record<string, unknown>): Promise<string> {
  const res = await request.post(`/api/runs/${runId}/fork`, { data });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { runId: string }).runId;
  await expect.poll(async () => ((await (await request.get(`/api/runs/${id}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe('completed');
  return id;
}

test("a fork's nested steps inside a step the other run answered whole are counted on its card, its edit among them", async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'nested_note' } })).status()).toBe(201);
  const model = 'turns:\n  - phase: answer\n    finish: { items: [{ n: 1 }, { n: 2 }] }\n';
  const saved = await request.post('/api/skills/nested_note/versions', { data: { files: { 'skill.md': SKILL_MD, 'model.yaml': model } } });
  expect(saved.status(), await saved.text()).toBe(201);
  const parent = await ranTo(request, 'nested_note', {}, 'completed');
  // A: element 1's first check answered with an edited result; B: on from the last step, the iterate answered whole
  const a = await forked(request, parent, { at: '__post__/0/1/0', value: { n: 2, edited: true } });
  const b = await forked(request, parent, { at: '__post__/1' });

  await page.goto(`/runs/compare?a=${a}&b=${b}`);
  const cardA = page.getByRole('group', { name: 'Run A' });
  await expect(cardA).toContainText("+4 nested steps of A not compared, A's edit at __post__/0/1/0 among them: they are inside __post__/0, which B answered whole from a recording");
  await shotOf(page.getByRole('region', { name: 'Comparison' }), 'test-results/screens/compare-nested-note.png');
});
