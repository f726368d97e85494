// The runs chart's newest bucket's label sits centred under its bar. recharts keeps a time axis'
// labels inside the plot, so the newest one, centred on the last band, was moved left by the part
// that stood out past the plot's end: on the week's chart (labels "12-06 13:15") 4 px off its bar at
// 1440 px and 13 px at 800 px, half a bar's band — read as the label of the bar before.
import { expect, test } from '@playwright/test';
import { openRunsChart, TIME_LABELS } from './runs-chart';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

for (const range of ['7d', '24h', '1h'] as const) {
  test(`the last ${range}'s chart centres its newest label under the newest bar, at 1440 and 800 px`, async ({ page, request }) => {
    // a run started now: the newest bucket has a bar
    expect((await request.post('/api/runs', { data: { skill: 'summarize', input: { path: 'report.txt' } } })).status()).toBe(201);
    for (const width of [1440, 800]) {
      const chart = await openRunsChart(page, range, width);
      const at = await chart.evaluate((el, labelsAt) => {
        const centre = (r: DOMRect) => ({ centre: r.left + r.width / 2, left: r.left, right: r.right });
        const svg = el.querySelector('svg.recharts-surface')!.getBoundingClientRect();
        const bars = [...el.querySelectorAll('.recharts-bar-rectangle path')].map((b) => centre(b.getBoundingClientRect()));
        const labels = [...el.querySelectorAll(labelsAt)].map((t) => ({ text: t.textContent ?? '', ...centre(t.getBoundingClientRect()) }));
        const last = <T extends { centre: number }>(xs: T[]) => xs.reduce((a, b) => (b.centre > a.centre ? b : a));
        return { bar: last(bars), label: last(labels), svgRight: svg.right };
      }, TIME_LABELS);
      await shotOf(chart, `test-results/screens/runs-chart-newest-${range}-${width}.png`);
      const said = `${range} at ${width} px: label ${at.label.text} centred at ${at.label.centre.toFixed(1)} (to ${at.label.right.toFixed(1)}), the newest bar at ${at.bar.centre.toFixed(1)}, the drawing's end at ${at.svgRight.toFixed(1)}`;
      expect(Math.abs(at.label.centre - at.bar.centre), said).toBeLessThanOrEqual(2);
      // …and whole: not cut at the drawing's end
      expect(at.label.right, said).toBeLessThanOrEqual(at.svgRight);
    }
  });
}
