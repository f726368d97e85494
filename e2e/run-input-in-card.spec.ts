// A run's input is in its status card, beside the skill, version and model that ran it, folded.
// Before, it was the page's last part, under the timeline and the scrubber: a completed run's input
// was a long scroll away from its caller artifact, with nothing near the top saying it was there.
import { expect, test } from '@playwright/test';

test('the run input is folded in the status card, above the report and the timeline', async ({ page, request }) => {
  const res = await request.post('/api/runs', { data: { skill: 'summarize', input: { path: 'report.txt' } } });
  expect(res.status(), await res.text()).toBe(201);
  const { runId } = (await res.json()) as { runId: string };
  await page.goto(`/runs/${runId}`);
  const input = page.locator('details').filter({ has: page.locator('summary', { hasText: /^Input$/ }) });
  await expect(input).toHaveCount(1);
  await expect(page.getByLabel('Run input')).toBeHidden();
  const top = async (y: ReturnType<typeof page.locator>) => (await y.boundingBox())!.y;
  const report = page.getByRole('region', { name: 'Run report' });
  await expect(report).toBeVisible();
  expect(await top(input)).toBeLessThan(await top(report));
  expect(await top(input)).toBeLessThan(await top(page.getByRole('region', { name: 'Timeline' })));
  await input.locator('summary').click();
  await expect(page.getByLabel('Run input')).toContainText('"path": "report.txt"');
  await page.screenshot({ path: 'test-results/screens/run-input-in-card.png' });
});
