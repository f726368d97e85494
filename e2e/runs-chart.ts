// The runs chart as its specs open it: /runs at a range and a width, once the chart has drawn its time labels.
import { expect, type Locator, type Page } from '@playwright/test';

/** the time axis' labels */
export const TIME_LABELS = '.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value';

/** /runs?range=`range` at `width` px (900 high): its chart region, its time labels drawn */
export async function openRunsChart(page: Page, range: string, width: number): Promise<Locator> {
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`/runs?range=${range}`);
  const chart = page.getByRole('region', { name: 'Runs over time' });
  await expect(chart.getByRole('application')).toHaveCount(1, { timeout: 30_000 });
  await expect(chart.locator(TIME_LABELS).first()).toBeVisible();
  return chart;
}
