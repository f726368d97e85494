// The scrubber's "What this event changed" lines cut a long value with "…"; the value says itself
// whole in its title (before: the rest of the run's error could not be read from the line).
import { expect, test } from '@playwright/test';
import { failedTallyRun } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 120_000 });

test("a change line cut short gives the value whole on hover", async ({ page, request }) => {
  const runId = await failedTallyRun(request, 'scrub_change_title');
  const run = (await (await request.get(`/api/runs/${runId}`)).json()) as { error: { message: string } };
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/runs/${runId}`);
  const slider = page.getByRole('slider', { name: 'Step' });
  await slider.scrollIntoViewIfNeeded();
  await slider.focus();
  await page.keyboard.press('End');
  const changes = page.getByRole('list', { name: 'Changes at step' });
  const error = changes.getByRole('listitem').filter({ hasText: '/error' }).locator('ins');
  await expect(error).toHaveText(/…$/);
  await expect(error).toHaveAttribute('title', /"message":/);
  const title = (await error.getAttribute('title')) ?? '';
  // the end of the error the line cut is in the title: the state's error is the run's, its first line
  expect((JSON.parse(title) as { message: string }).message).toBe(run.error.message.split('\n')[0]);
  expect(title).toContain("KeyError: 'count' (at total.py:3)");
  // a line shown whole carries no title repeating it
  await expect(changes.getByRole('listitem').filter({ hasText: '/status' }).locator('ins')).not.toHaveAttribute('title', /.*/);
  await shotOf(changes, 'test-results/screens/scrub-change-title.png');
});
