// The run page's keyboard order follows what is seen, row by row: the timeline, then Details beside
// it (what the selected item received, returned and raised), then the scrubber under the timeline with
// the state at its step. Before, Details came last: from the selected failed step, Tab went through the
// scrubber's buttons, its slider and every value of the state at the step (a transcript's messages, the
// workspace, the chain's value) before it reached Details; and from the scrubber the same way.
import { expect, test } from '@playwright/test';
import { failedTallyRun } from './skill-runs';

test.describe.configure({ timeout: 240_000 });

test('Tab from the selected item goes to its Details, and from Details on to the scrubber; the scrubber stays right under the timeline', async ({ page, request }) => {
  const runId = await failedTallyRun(request, 'tab_order');

  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const details = page.getByRole('region', { name: 'Details' });
  const scrubber = page.getByRole('region', { name: 'Scrubber' });
  const failed = timeline.getByRole('listitem', { name: '__post__/0 python failed' });
  await expect(failed).toHaveAttribute('aria-current', 'true');
  await expect(details).toContainText('KeyError');
  // the state at the step holds values that take focus (the transcript's messages): they come after Details
  await expect(scrubber.getByRole('region', { name: 'State at step' }).getByLabel('content of count/m0')).toBeVisible();

  // from the selected failed step, the next stop is Details' first control
  await failed.getByRole('button').focus();
  await page.keyboard.press('Tab');
  await expect(details.getByRole('button', { name: 'Rerun from here' })).toBeFocused();
  // and from the scrubber back, Details' last one
  await scrubber.getByRole('button', { name: 'First step' }).focus();
  await page.keyboard.press('Shift+Tab');
  await expect(details.locator(':focus')).toHaveCount(1);
  // from Details' last control, Tab goes on to the scrubber
  await page.keyboard.press('Tab');
  await expect(scrubber.getByRole('button', { name: 'First step' })).toBeFocused();
  await page.screenshot({ path: 'test-results/screens/inspector-tab-order.png', fullPage: true });

  // where it is drawn has not moved: the scrubber right under the timeline, Details beside it
  const t = (await timeline.boundingBox())!;
  const s = (await scrubber.boundingBox())!;
  const d = (await details.boundingBox())!;
  expect(s.y - (t.y + t.height)).toBeGreaterThanOrEqual(0);
  expect(s.y - (t.y + t.height)).toBeLessThanOrEqual(40); // 32 px, as before
  expect(Math.abs(s.x - t.x)).toBeLessThanOrEqual(1);
  expect(d.x).toBeGreaterThan(t.x + t.width);
  expect(Math.abs(d.y - t.y)).toBeLessThanOrEqual(1);
});
