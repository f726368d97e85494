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
  await expect(chart).toHaveAccessibleName(/^Runs started per time bucket, by status/);
  await expect(chart).toHaveAttribute('tabindex', '0');
});
