// The compare page asked to set a run beside itself says they are one run and asks for another,
// with the form. Before, it drew a full comparison whose verdict read "identical — the two runs took
// the same steps", as if two runs had been compared.
import { expect, test } from '@playwright/test';
import { ranTo } from './skill-runs';

test('comparing a run with itself asks for another run instead of calling them identical', async ({ page, request }) => {
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: 'cmp_self', from: 'summarize' } })).status());
  const runId = await ranTo(request, 'cmp_self', { path: 'report.txt' }, 'completed');
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto(`/runs/compare?a=${runId}&b=${runId}`);
  await expect(page.getByText(`A and B are the same run, ${runId}: name another run for one side.`)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Comparison' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Run A' })).toHaveValue(runId);
  await page.screenshot({ path: 'test-results/screens/compare-same-run.png' });
});
