// Times on the run pages are said one way: the scrubber's UTC. Check against past runs said a run's
// start, and the fork dialog a version's save, in the browser's 12-hour local time ("Dec 5, 2026, 6:03:07 PM").
import { expect, test } from '@playwright/test';
import { ranThenBrokenSummarize } from './skill-runs';

// a browser far from UTC: its local time is not the UTC one
test.use({ timezoneId: 'America/Los_Angeles', locale: 'en-US' });

const UTC = /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/;

test('Check against past runs and the fork dialog say times in UTC, as the scrubber does', async ({ page, request }) => {
  const name = 'times_utc';
  const runId = await ranThenBrokenSummarize(request, name);

  await page.goto(`/skills/${name}`);
  await page.getByRole('button', { name: 'Check against past runs' }).click();
  const changed = page.getByRole('dialog', { name: 'Check against past runs' }).getByRole('listitem', { name: `Run ${runId} would change` });
  await expect(changed).toContainText(UTC);
  await expect(changed).not.toContainText(/[AP]M\b/);
  await page.screenshot({ path: 'test-results/screens/times-utc-check.png' });

  await page.goto(`/runs/${runId}`);
  await page.getByRole('button', { name: 'Fork from here' }).click();
  const older = page.getByRole('dialog', { name: 'Fork from here' }).getByLabel('Version').getByRole('option').nth(1);
  await expect(older).toHaveText(new RegExp(`· saved ${UTC.source} · this run's$`));
  await page.screenshot({ path: 'test-results/screens/times-utc-fork.png' });
});
