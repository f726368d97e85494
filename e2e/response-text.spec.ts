// A model turn's Details: the text it said under Response, and none at all for a turn that said no
// text (it only finished, or only called tools) — an empty, focusable box stood there before, above
// the finish. The summarize example: round 1 says "Reading the report." and calls file/read, round 2
// only finishes.
import { expect, test } from '@playwright/test';

test.describe.configure({ timeout: 180_000 });

test("a model turn that said no text shows no empty Response text box; one that did shows its words", async ({ page, request }) => {
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: 'said_text', from: 'summarize' } })).status());
  const started = await request.post('/api/runs', { data: { skill: 'said_text', input: { path: 'report.txt' } } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe('completed');

  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const details = page.getByRole('region', { name: 'Details' });
  await timeline.getByText('finished with', { exact: false }).first().click();
  await expect(details).toContainText('summarize/r2/model');
  await expect(details.getByLabel('Finish', { exact: true })).toBeVisible();
  await expect(details.getByLabel('Response text', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/response-no-text.png' });

  await timeline.getByText('called 1 tool', { exact: false }).first().click();
  await expect(details).toContainText('summarize/r1/model');
  await expect(details.getByLabel('Response text', { exact: true })).toContainText('Reading the report.');
});
