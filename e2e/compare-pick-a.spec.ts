// Compare on a run with nothing to set beside it (no completed run of its skill before it, no replay
// or fork): the page names run A as missing and offers the skill's latest runs to pick it from —
// before, it said "name run A" beside an empty box, and a run id had to be copied from another tab.
import { expect, test } from '@playwright/test';
import { ranTo } from './skill-runs';

test("a run with nothing before it offers its skill's later runs to compare with; one click compares", async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'cmp_pick', from: 'summarize' } })).status()).toBe(201);
  const first = await ranTo(request, 'cmp_pick', { path: 'report.txt' }, 'completed');
  const second = await ranTo(request, 'cmp_pick', { path: 'report.txt' }, 'completed');
  await page.goto(`/runs/compare?b=${first}`);
  await expect(page.getByText(`There is no completed run of its skill before ${first} to set it beside: name run A. Or pick one of the runs below.`)).toBeVisible();
  const offered = page.getByRole('navigation', { name: 'Compare B with another run' });
  await expect(offered.getByRole('listitem')).toHaveCount(1);
  await expect(offered).toContainText('another run of cmp_pick (completed)');
  await page.screenshot({ path: 'test-results/screens/compare-pick-a.png' });
  // it came after B: it goes on the right, B on the left
  await offered.getByRole('link', { name: second }).click();
  await expect(page).toHaveURL(new RegExp(`a=${first}&b=${second}`));
  await expect(page.getByRole('region', { name: 'Comparison' })).toBeVisible();
});
