// The runs chart's legend: recharts named each swatch ("completed legend icon"), read out by a screen
// reader as noise before each status. The swatches are hidden from the accessibility tree; the words stay.
import { expect, test } from '@playwright/test';
import { ranTo } from './skill-runs';
import { shotOf } from './shots';

test('the runs chart legend names each status once, its swatches hidden', async ({ page, request }) => {
  await ranTo(request, 'summarize', { path: 'report.txt' }, 'completed');
  await page.goto('/runs');
  const chart = page.getByRole('region', { name: 'Runs over time' });
  await expect(chart.getByRole('application')).toHaveCount(1, { timeout: 30_000 });
  const legend = chart.locator('.recharts-legend-wrapper');
  // other specs' runs may be here too: the completed one's item reads its status alone
  await expect(legend.getByRole('listitem').filter({ hasText: 'completed' })).toHaveText('completed');
  await expect(chart.getByRole('img', { name: /legend icon/ })).toHaveCount(0);
  await expect(chart.getByLabel(/legend icon/)).toHaveCount(0);
  await expect(legend.locator('svg').first()).toHaveAttribute('aria-hidden', 'true');
  await shotOf(legend, 'test-results/screens/runs-legend-icons.png');
  await shotOf(chart, 'test-results/screens/runs-legend-chart.png');
});
