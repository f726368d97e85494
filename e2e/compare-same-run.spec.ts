// The compare page asked to set a run beside itself says they are one run and asks for another,
// with the form. Before, it drew a full comparison whose verdict read "identical — the two runs took
// the same steps", as if two runs had been compared.
import { expect, test } from '@playwright/test';

test('comparing a run with itself asks for another run instead of calling them identical', async ({ page, request }) => {
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: 'cmp_self', from: 'summarize' } })).status());
  const started = await request.post('/api/runs', { data: { skill: 'cmp_self', input: { path: 'report.txt' } } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe('completed');
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto(`/runs/compare?a=${runId}&b=${runId}`);
  await expect(page.getByText(`A and B are the same run, ${runId}: name another run for one side.`)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Comparison' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Run A' })).toHaveValue(runId);
  await page.screenshot({ path: 'test-results/screens/compare-same-run.png' });
});
