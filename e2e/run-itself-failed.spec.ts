// A run that failed outside any step (here its model script has no turn left after the finish was
// rejected) does not read "0 failures" / "Nothing failed" in its timeline: it says the run itself failed.
import { expect, test } from '@playwright/test';
import { itselfFailedRun } from './skill-runs';

test.describe.configure({ timeout: 240_000 });

test('a failed run with no failed item says the run itself failed, in the count and under Failed only', async ({ page, request }) => {
  const runId = await itselfFailedRun(request, 'itself_failed');

  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline).toContainText('the run itself failed');
  await expect(timeline).not.toContainText('0 failures');
  await page.getByRole('checkbox', { name: 'Failed only' }).check();
  await expect(timeline).toContainText('the run report says why');
  await expect(timeline).not.toContainText('Nothing failed');
});
