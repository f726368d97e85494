// Filters that match no run: the chart says so in a line, and "No runs match these filters" comes up
// under it. Before, the chart kept its 170 px drawing area blank around "No runs to draw.", a box of
// nothing above the one message that says what to do, pushed half down an 800 px window.
import { expect, test } from '@playwright/test';

test.describe.configure({ timeout: 240_000 });

test('no run to chart: the chart is one line, and the empty list right under it is in view', async ({ page, request }) => {
  const started = await request.post('/api/runs', { data: { skill: 'summarize', input: { path: 'report.txt' } } });
  expect(started.status(), await started.text()).toBe(201);
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto('/runs?q=matches_no_run_at_all');
  const chart = page.getByRole('region', { name: 'Runs over time' });
  await expect(chart).toContainText('No runs to draw.');
  expect((await chart.boundingBox())!.height).toBeLessThan(100);
  await expect(page.getByRole('heading', { name: 'No runs match these filters' })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: 'test-results/screens/runs-chart-none.png' });
});
