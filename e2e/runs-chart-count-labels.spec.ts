// The runs chart's count axis shows its labels whole, however many runs a bucket holds. Its width was
// fixed (44 px, 18 of them pulled off the drawing's left edge): with 120 runs in a bucket its "105"
// and "140" began 3 px left of the drawing and read "l05", "l40" at 1440 and 800 px; four digits lost
// more. A bucket of 1,200 runs is not started for real (too slow): the chart's own answer is read,
// then that bucket's count raised, as the browser receives it.
import { expect, test, type Page } from '@playwright/test';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

const CHART = 'Runs over time';
const Y_LABELS = '.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value';

type YLabels = { texts: string[]; lefts: number[]; rights: number[]; plotLeft: number; svgLeft: number; svgRight: number };

/** each count label's box, in page px, beside the drawing's edges and the plot's left (the x axis' start) */
async function countLabels(page: Page): Promise<YLabels> {
  const chart = page.getByRole('region', { name: CHART });
  await expect(chart.getByRole('application')).toHaveCount(1, { timeout: 30_000 });
  await expect(chart.locator(Y_LABELS).first()).toBeVisible();
  return chart.evaluate((el, at) => {
    const svg = el.querySelector('svg.recharts-surface')!.getBoundingClientRect();
    const plotLeft = el.querySelector('.recharts-xAxis .recharts-cartesian-axis-line')!.getBoundingClientRect().left;
    const boxes = [...el.querySelectorAll(at)].map((t) => ({ text: t.textContent ?? '', box: t.getBoundingClientRect() }));
    return { texts: boxes.map((b) => b.text), lefts: boxes.map((b) => b.box.left), rights: boxes.map((b) => b.box.right), plotLeft, svgLeft: svg.left, svgRight: svg.right };
  }, Y_LABELS);
}

/** every label a whole count, within the drawing (not cut at its left edge) and left of the bars */
function expectWhole(l: YLabels, said: string): void {
  expect(l.texts.length, said).toBeGreaterThanOrEqual(2);
  for (const [i, text] of l.texts.entries()) {
    const of = `${said}: label ${text} spans ${l.lefts[i].toFixed(1)}–${l.rights[i].toFixed(1)}, the drawing ${l.svgLeft.toFixed(1)}–${l.svgRight.toFixed(1)}, the bars from ${l.plotLeft.toFixed(1)}`;
    expect(text, of).toMatch(/^\d+$/);
    expect(l.lefts[i], of).toBeGreaterThanOrEqual(l.svgLeft);
    expect(l.rights[i], of).toBeLessThanOrEqual(l.plotLeft);
  }
}

const largest = (texts: string[]) => Math.max(...texts.map(Number));

test('with 120 runs in a bucket, the count axis shows its three-digit labels whole, at 1440 and 800 px', async ({ page, request }) => {
  // 120 runs started within seconds: one 30-minute bucket of the last day's chart holds them
  for (let batch = 0; batch < 6; batch++) {
    const started = await Promise.all(Array.from({ length: 20 }, () => request.post('/api/runs', { data: { skill: 'summarize', input: { path: 'report.txt' } } })));
    for (const s of started) expect(s.status()).toBe(201);
  }
  for (const width of [1440, 800]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/runs?range=24h');
    const labels = await countLabels(page);
    await shotOf(page.getByRole('region', { name: CHART }), `test-results/screens/runs-chart-counts-120-${width}.png`);
    const said = `120 runs at ${width} px: ${labels.texts.join(' ')}`;
    expect(largest(labels.texts), said).toBeGreaterThanOrEqual(100);
    expectWhole(labels, said);
  }
});

/** the chart's answers as the browser receives them, with the newest bucket holding `count` completed runs and no other bucket any */
async function answerWithNewest(page: Page, count: number): Promise<void> {
  await page.route(/\/api\/runs\/stats\?/, async (route) => {
    const answer = await route.fetch();
    const stats = (await answer.json()) as { total: number; byStatus: Record<string, number>; buckets: Record<string, number>[] };
    const zero = { queued: 0, running: 0, completed: 0, failed: 0, aborted: 0 };
    stats.buckets = stats.buckets.map((b, i) => ({ ...b, ...zero, ...(i === stats.buckets.length - 1 ? { completed: count } : {}) }));
    stats.byStatus = { ...zero, completed: count };
    stats.total = count;
    await route.fulfill({ response: answer, json: stats });
  });
}

/** the last week's chart, asked for by picking the range (the page's first chart is the server's, not asked for) */
async function weekChart(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await page.goto('/runs?range=24h');
  await expect(page.getByRole('region', { name: CHART }).getByRole('application')).toHaveCount(1, { timeout: 30_000 });
  await page.getByLabel('Started').selectOption('7d');
  await expect(page).toHaveURL(/range=7d/);
  await expect(page.getByRole('region', { name: CHART })).not.toHaveAttribute('aria-busy', 'true');
}

test('with 1,200 runs in a bucket, the count axis shows its four-digit labels whole, at 1440 and 800 px', async ({ page, request }) => {
  expect((await request.post('/api/runs', { data: { skill: 'summarize', input: { path: 'report.txt' } } })).status()).toBe(201);
  await answerWithNewest(page, 1200);
  for (const width of [1440, 800]) {
    await weekChart(page, width);
    await expect(page.getByRole('region', { name: CHART })).toContainText('1200 runs');
    const labels = await countLabels(page);
    await shotOf(page.getByRole('region', { name: CHART }), `test-results/screens/runs-chart-counts-1200-${width}.png`);
    const said = `1,200 runs at ${width} px: ${labels.texts.join(' ')}`;
    expect(largest(labels.texts), said).toBeGreaterThanOrEqual(1200);
    expectWhole(labels, said);
  }
});

test('with a few runs, the count axis takes no more room than its one-digit labels need', async ({ page, request }) => {
  expect((await request.post('/api/runs', { data: { skill: 'summarize', input: { path: 'report.txt' } } })).status()).toBe(201);
  await answerWithNewest(page, 4);
  await weekChart(page, 1440);
  await expect(page.getByRole('region', { name: CHART })).toContainText('4 runs');
  const labels = await countLabels(page);
  await shotOf(page.getByRole('region', { name: CHART }), 'test-results/screens/runs-chart-counts-4-1440.png');
  const said = `4 runs: ${labels.texts.join(' ')}`;
  expect(largest(labels.texts), said).toBe(4);
  expectWhole(labels, said);
  // the bars begin a label's width and a small gap from the drawing's edge, not a four-digit label's
  expect(labels.plotLeft - labels.svgLeft, said).toBeLessThanOrEqual(24);
});
