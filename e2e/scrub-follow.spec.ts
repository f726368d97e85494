// The scrubber on a long run: the item its event belongs to is brought into view in the timeline,
// however far from the visits in view (the timeline draws only those), by scrolling the timeline's
// own box — the page stays where it is, the slider in view and focused, so ←/→ go on stepping —
// and where the box alone cannot show it (back at the first items, the box's top above the window),
// by the least page scroll that does.
// Before, the highlight went to a visit that was not drawn: stepping to event 1,500 of 1,800 showed
// its state under the slider and nothing in the timeline, still at the first visits.
// The run is the loop skill of the benchmarks (bench/loop-bundle.ts), saved and run through the API.
import { expect, test } from '@playwright/test';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeLoopBundle } from '../bench/loop-bundle';

test.describe.configure({ timeout: 300_000 });

test("stepping the scrubber on a long run brings its event's item into view in the timeline, the page left still", async ({ page, request }) => {
  const dir = writeLoopBundle(120);
  const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]));
  rmSync(dir, { recursive: true, force: true });
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: 'loop_scrub', from: 'blank' } })).status());
  const saved = await request.post('/api/skills/loop_scrub/versions', { data: { files: { ...files, 'skill.md': files['skill.md'].replace('name: loop_skill', 'name: loop_scrub') } } });
  expect(saved.status(), await saved.text()).toBe(201);
  const res = await request.post('/api/runs', { data: { skill: 'loop_scrub', input: { n: 0 } } });
  expect(res.status(), await res.text()).toBe(201);
  const { runId } = (await res.json()) as { runId: string };
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 240_000, intervals: [1_000] }).toBe('completed');

  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByRole('article').first()).toBeVisible({ timeout: 30_000 });
  const slider = page.getByRole('slider', { name: 'Step' });
  await slider.scrollIntoViewIfNeeded();
  const scrolledTo = await page.evaluate(() => window.scrollY);

  await slider.fill('1500');
  const state = page.getByRole('region', { name: 'State at step' });
  await expect(state).toContainText('Event 1500 of');
  // where that event was: its visit, as the state says it (work#100 or check#99)
  const visit = /(work|check)#(\d+)/.exec((await state.textContent()) ?? '');
  expect(visit, 'the state names the visit of event 1500').not.toBeNull();
  const scrubbed = timeline.locator('[data-scrubbed]');
  await expect(scrubbed).toHaveCount(1);
  await expect(scrubbed).toBeInViewport();
  await expect(timeline.getByRole('article', { name: `Phase ${visit![1]}, visit ${visit![2]}`, exact: true }).locator('[data-scrubbed]')).toBeInViewport();
  await page.screenshot({ path: 'test-results/screens/scrub-follow-1500.png' });

  // the keys step on from the slider, the timeline following, the page still
  await expect(slider).toBeFocused();
  for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowRight');
  await expect(state).toContainText('Event 1520 of');
  await expect(scrubbed).toBeInViewport();
  await expect(slider).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolledTo);

  // Home: back to the first visit
  await page.keyboard.press('End');
  await page.keyboard.press('Home');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect(state).toContainText('Event 3 of');
  // the first visit is drawn again and its item shown: the box scrolled to its top, and — the box's top
  // being above the window, with the page where it was (the slider in view) — the page by the least
  // that shows the item (before, the page stayed still and the first items stayed above the window)
  await expect(timeline.getByRole('article', { name: 'Phase work, visit 1', exact: true })).toBeInViewport();
  await expect(scrubbed).toHaveCount(1);
  // whole but for sub-pixel rounding (the page scrolls by whole pixels: CI read 0.9986; before the fix, 0)
  await expect(scrubbed).toBeInViewport({ ratio: 0.95 });
  await page.screenshot({ path: 'test-results/screens/scrub-follow-3.png' });
  // the item in the window already: stepping on moves the page no further
  const shownAt = await page.evaluate(() => window.scrollY);
  await page.keyboard.press('ArrowRight');
  await expect(state).toContainText('Event 4 of');
  await expect(scrubbed).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBe(shownAt);
});
