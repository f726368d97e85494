// The runs chart is a focusable control (recharts' accessibility layer makes its drawing an
// `application` that ← and → walk): it has a name, as every control does.
import { expect, test } from '@playwright/test';

test.describe.configure({ timeout: 240_000 });

test('the runs chart, focusable, is named', async ({ page, request }) => {
  const started = await request.post('/api/runs', { data: { skill: 'summarize', input: { path: 'report.txt' } } });
  expect(started.status(), await started.text()).toBe(201);
  await page.goto('/runs');
  const chart = page.getByRole('region', { name: 'Runs over time' }).getByRole('application');
  await expect(chart).toHaveCount(1, { timeout: 30_000 });
  await expect(chart).toHaveAccessibleName(/^Bar chart of the filtered runs per time bucket/);
  await expect(chart).toHaveAttribute('tabindex', '0');
});

test('the chart’s name takes no filter’s label: getByLabel of each filter still finds one control', async ({ page, request }) => {
  expect((await request.post('/api/runs', { data: { skill: 'summarize', input: { path: 'report.txt' } } })).status()).toBe(201);
  await page.goto('/runs');
  await expect(page.getByRole('region', { name: 'Runs over time' }).getByRole('application')).toHaveCount(1, { timeout: 30_000 });
  for (const label of ['Status', 'Started', 'Skill', 'Outcome', 'Failed at', 'Needs attention', 'Search']) await expect(page.getByLabel(label)).toHaveCount(1);
});
