// The Timeline's failure count reads whole in an 800 px window: a blocked run whose stages are refused
// for missing grants says "7 failures (1 of them a denied tool call), the other 6 refused stages, not failures of the
// run"; kept on one line, its end ran out of the Timeline's box and was cut off.
import { expect, test } from '@playwright/test';
import { exampleFiles, ranTo } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

test('a long failure count wraps inside the Timeline at 800 px', async ({ page, request }) => {
  const name = 'count_wraps_brief';
  expect((await request.post('/api/skills', { data: { name, from: 'research_brief' } })).status()).toBe(201);
  const files = exampleFiles('research_brief', name);
  files['skill.md'] = files['skill.md'].replace('effects: [fs.read, prompt.write, tools.gate, transcript.write, artifact.write]', 'effects: [fs.read, tools.gate]');
  expect((await request.post(`/api/skills/${name}/versions`, { data: { files } })).status()).toBe(201);
  const runId = await ranTo(request, name, JSON.parse(files['input.json']) as Record<string, unknown>, 'completed');

  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const count = timeline.getByText(/^7 failures \(1 of them a denied tool call\), the other 6 refused stages, not failures of the run$/);
  await expect(count).toBeVisible();
  const box = (await timeline.boundingBox())!;
  const countBox = (await count.boundingBox())!;
  expect(countBox.x + countBox.width).toBeLessThanOrEqual(box.x + box.width);
  await shotOf(timeline, 'test-results/screens/timeline-count-wraps-800.png');
});
