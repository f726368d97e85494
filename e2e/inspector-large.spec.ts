// A run of 10,000 events on the run page: it paints its timeline quickly and opens on its failure —
// the last of 1,333 phase visits — selected, in view, its error in Details, with no click. Only the
// visits in view are in the page; scrolled to the top, the first visits are read and drawn; Failed
// only keeps the one visit that failed; the zoom goes in, out and back to the width.
// The run is the loop skill of the benchmarks (bench/loop-bundle.ts), failing at its 667th visit of
// work, saved and run through the API.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeLoopBundle } from '../bench/loop-bundle';

// a 10,000-event run on a loaded machine (2 cores shared with builds) takes its time
test.describe.configure({ timeout: 600_000 });

const LOOPS = 700;
const FAIL_AT_VISIT = 667;
const FAILED_STEP = `work#${FAIL_AT_VISIT}/pre/0 validate failed`;

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/${name}.png` });

test('a 10,000-event run paints its timeline and opens on its late failure, selected and in view', async ({ page, request }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const dir = writeLoopBundle(LOOPS, { failAtVisit: FAIL_AT_VISIT });
  const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]));
  rmSync(dir, { recursive: true, force: true });
  expect((await request.post('/api/skills', { data: { name: 'loop_skill', from: 'blank' } })).status()).toBe(201);
  const saved = await request.post('/api/skills/loop_skill/versions', { data: { files } });
  expect(saved.status(), await saved.text()).toBe(201);
  const res = await request.post('/api/runs', { data: { skill: 'loop_skill', input: { n: 0 } } });
  expect(res.status(), await res.text()).toBe(201);
  const { runId } = (await res.json()) as { runId: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 480_000, intervals: [2_000] })
    .toBe('aborted');
  const events = ((await (await request.get(`/api/runs/${runId}`)).json()) as { eventCount: number }).eventCount;
  expect(events).toBeGreaterThanOrEqual(9_990);
  // the server folds the log once (the first read of the timeline); the page is measured after it
  expect((await request.get(`/api/runs/${runId}/timeline?from=0&limit=1`, { timeout: 240_000 })).status()).toBe(200);

  const t0 = Date.now();
  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline).toBeVisible({ timeout: 30_000 });
  const step = timeline.getByRole('list', { name: 'Steps' }).getByRole('listitem', { name: FAILED_STEP });
  await expect(step).toHaveAttribute('aria-current', 'true');
  await expect(step).toBeInViewport();
  const paintedMs = Date.now() - t0;
  test.info().annotations.push({ type: 'painted', description: `${events} events: timeline and failure in view in ${paintedMs} ms` });
  expect(paintedMs).toBeLessThan(30_000);
  await expect(timeline).toContainText(`${(FAIL_AT_VISIT * 2 - 1).toLocaleString('en')} visits`);
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText(FAILED_STEP);
  await expect(details.getByRole('group', { name: 'Error' })).toContainText('must be <=');
  // only the visits in view (and a few either side) are in the page
  expect(await timeline.getByRole('article').count()).toBeLessThan(30);
  await shot(page, '80-inspector-10k-opened-on-failure');

  // the top of the run: its first visits are read and drawn as they come into view
  await timeline.locator('[data-zoom]').evaluate((el) => el.scrollTo({ top: 0 }));
  const first = timeline.getByRole('article', { name: 'Phase work, visit 1' });
  await expect(first.getByRole('listitem', { name: 'work/pre/0 validate ok' })).toBeVisible({ timeout: 30_000 });
  await expect(first.getByRole('list', { name: 'Stage traces' }).getByRole('listitem', { name: 'post-tool result_budget/result_budget ok' }).first()).toBeVisible();
  await expect(step).toHaveCount(0);

  // n goes back to the failure (the only one), from wherever the timeline is
  await page.keyboard.press('n');
  await expect(step).toBeInViewport({ timeout: 30_000 });
  await expect(step).toHaveAttribute('aria-current', 'true');

  // Failed only: the one visit that holds a failure
  await timeline.getByRole('checkbox', { name: 'Failed only' }).check();
  await expect(timeline.getByRole('article')).toHaveCount(1);
  await expect(step).toBeVisible();

  // zoom: out, in, back to the width; nothing clipped at any of them
  await timeline.getByRole('checkbox', { name: 'Failed only' }).uncheck();
  const level = timeline.getByLabel('Zoom level');
  await expect(level).toHaveText('100%');
  await timeline.getByRole('button', { name: 'Zoom out' }).click();
  await expect(level).toHaveText('80%');
  await shot(page, '81-inspector-10k-zoomed-out');
  await timeline.getByRole('button', { name: 'Zoom in' }).click();
  await timeline.getByRole('button', { name: 'Zoom in' }).click();
  await expect(level).toHaveText('125%');
  const clipped = await timeline.evaluate((el) => [...el.querySelectorAll('li')].filter((li) => li.scrollWidth > li.clientWidth + 1).map((li) => li.getAttribute('aria-label')));
  expect(clipped).toEqual([]);
  await shot(page, '82-inspector-10k-zoomed-in');
  await timeline.getByRole('button', { name: 'Fit' }).click();
  await expect(level).toHaveText('100%');
  expect(errors).toEqual([]);
});
