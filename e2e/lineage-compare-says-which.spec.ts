// A run's "Replays and forks" list: each row's "compare" link says which run it compares with
// (its tooltip and accessible description). Before, a run replayed several times showed a column of
// links all called just "compare", which a screen reader listing links could not tell apart.
import { expect, test } from '@playwright/test';
import { ranTo } from './skill-runs';
import { shotOf } from './shots';

test('each compare link of a run with several replays says which replay it compares with', async ({ page, request }) => {
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: 'lineage_links', from: 'summarize' } })).status());
  const runId = await ranTo(request, 'lineage_links', { path: 'report.txt' }, 'completed');
  for (let i = 0; i < 2; i++) {
    const res = await request.post(`/api/runs/${runId}/replay`, { data: {} });
    expect(res.status(), await res.text()).toBe(200);
  }
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto(`/runs/${runId}`);
  const list = page.getByRole('list', { name: 'Replays and forks of this run' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  for (const item of await list.getByRole('listitem').all()) {
    const id = (await item.getByRole('link', { name: /^run_/ }).textContent())!;
    const link = item.getByRole('link', { name: 'compare', exact: true });
    await expect(link).toHaveAccessibleDescription(`Compare this run with ${id}`);
    await expect(link).toHaveAttribute('title', `Compare this run with ${id}`);
  }
  await shotOf(list, 'test-results/screens/lineage-compare-links.png');
});
