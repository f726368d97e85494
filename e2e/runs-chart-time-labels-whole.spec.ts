// The runs chart's time labels all stand whole within its drawing. Once the count axis took only its
// labels' width (one-digit counts: some 15 px), the week's first label ("11-29 19:24", centred under the
// first bar; recharts does not move it in) began half a px before the drawing at 1024 px, its first
// digit cut.
import { expect, test } from '@playwright/test';
import { openRunsChart, TIME_LABELS } from './runs-chart';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

for (const range of ['7d', '24h', '1h', '30d'] as const) {
  test(`the last ${range}'s chart shows each time label whole, at 1440, 1024 and 800 px`, async ({ page, request }) => {
    expect((await request.post('/api/runs', { data: { skill: 'summarize', input: { path: 'report.txt' } } })).status()).toBe(201);
    for (const width of [1440, 1024, 800]) {
      const chart = await openRunsChart(page, range, width);
      const at = await chart.evaluate((el, labelsAt) => {
        const svg = el.querySelector('svg.recharts-surface')!.getBoundingClientRect();
        const labels = [...el.querySelectorAll(labelsAt)].map((t) => ({ text: t.textContent ?? '', left: t.getBoundingClientRect().left, right: t.getBoundingClientRect().right }));
        return { labels, svgLeft: svg.left, svgRight: svg.right };
      }, TIME_LABELS);
      await shotOf(chart, `test-results/screens/runs-chart-time-labels-${range}-${width}.png`);
      for (const l of at.labels) {
        const said = `${range} at ${width} px: label ${l.text} spans ${l.left.toFixed(1)}–${l.right.toFixed(1)}, the drawing ${at.svgLeft.toFixed(1)}–${at.svgRight.toFixed(1)}`;
        expect(l.left, said).toBeGreaterThanOrEqual(at.svgLeft);
        expect(l.right, said).toBeLessThanOrEqual(at.svgRight);
      }
    }
  });
}
