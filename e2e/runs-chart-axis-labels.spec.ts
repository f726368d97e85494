// The runs chart's time axis labels its buckets at one even step, the newest bucket included. Before,
// recharts' `preserveStartEnd` labelled every nth bucket from the first and then the last one
// whatever its distance: the label due before the last was dropped, and the axis read 16:54, (a
// gap where 17:04 belonged), 17:09 — an hour's chart at 800 px, a day's at 1440 and 800 px.
import { expect, test, type Page } from '@playwright/test';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

const LABELS = '.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value';

/** the x-axis' labels as bucket indexes: each label's centre (its x, in the drawing's units) on the band it sits in */
async function labelledBuckets(page: Page, buckets: number): Promise<{ indexes: number[]; texts: string[]; lastCentre: number; lastBand: [number, number] }> {
  const chart = page.getByRole('region', { name: 'Runs over time' });
  await expect(chart.getByRole('application')).toHaveCount(1, { timeout: 30_000 });
  await expect(chart.locator(LABELS).first()).toBeVisible();
  return chart.evaluate(
    (el, [n, labelsAt]) => {
      const axis = el.querySelector('.recharts-xAxis .recharts-cartesian-axis-line')!;
      const [x1, x2] = [Number(axis.getAttribute('x1')), Number(axis.getAttribute('x2'))];
      const band = (x2 - x1) / n;
      const labels = [...el.querySelectorAll(labelsAt)].map((t) => ({ text: t.textContent ?? '', centre: Number(t.getAttribute('x')) })).sort((a, b) => a.centre - b.centre);
      const last = labels[labels.length - 1];
      return {
        // a label's centre sits on its band's (the last one's may be moved in so that it fits: said apart)
        indexes: labels.slice(0, -1).map((l) => Math.round((l.centre - x1) / band - 0.5)),
        texts: labels.map((l) => l.text),
        lastCentre: last.centre,
        lastBand: [x2 - band, x2] as [number, number],
      };
    },
    [buckets, LABELS] as const,
  );
}

// the page asks for 48 buckets: a day is 48 of 30 min, an hour 12 of 5 min, a week 28 of 6 hours (bucketWidth's nice widths)
for (const [range, buckets] of [
  ['24h', 48],
  ['1h', 12],
  ['7d', 28],
] as const) {
  test(`the last ${range}'s chart labels its buckets at one even step, up to the newest, at 1440 and 800 px`, async ({ page, request }) => {
    expect((await request.post('/api/runs', { data: { skill: 'summarize', input: { path: 'report.txt' } } })).status()).toBe(201);
    for (const width of [1440, 800]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/runs?range=${range}`);
      const { indexes, texts, lastCentre, lastBand } = await labelledBuckets(page, buckets);
      await shotOf(page.getByRole('region', { name: 'Runs over time' }), `test-results/screens/runs-chart-axis-${range}-${width}.png`);
      const said = `${range} at ${width} px: ${texts.join(' ')} at buckets ${indexes.join(' ')} + the last`;
      expect(indexes.length, said).toBeGreaterThanOrEqual(2);
      const step = indexes[1] - indexes[0];
      expect(step, said).toBeGreaterThan(0);
      // the newest bucket is labelled: its label is the last, in or just short of its band
      expect(lastCentre, said).toBeGreaterThan(lastBand[0] - 20);
      expect(lastCentre, said).toBeLessThanOrEqual(lastBand[1]);
      // every step the same, the last (to the newest bucket) too: no label dropped on the way
      const steps = [...indexes.slice(1), buckets - 1].map((i, k) => i - indexes[k]);
      expect(steps, said).toEqual(steps.map(() => step));
      // a week's 6-hour buckets say their date with the time (they read 17:15, 05:15, 17:15… with no day told apart)
      for (const t of texts) expect(t, said).toMatch(range === '7d' ? /^\d\d-\d\d \d\d:\d\d$/ : /^\d\d:\d\d$/);
    }
  });
}
