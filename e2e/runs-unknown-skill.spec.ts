// The runs list filtered to a skill name that no skill has (a typo in a shared link, a deleted
// skill): the empty list says no skill is named so, not only that nothing matches.
import { expect, test } from '@playwright/test';
import { failedTallyRun } from './skill-runs';

test.describe.configure({ timeout: 180_000 });

test('runs list: a skill filter naming no skill says so; a skill that exists does not', async ({ page, request }) => {
  await failedTallyRun(request, 'tally_known');
  await page.goto('/runs?skill=tally_knwon');
  await expect(page.getByRole('heading', { name: 'No runs match these filters' })).toBeVisible();
  const empty = page.getByRole('region', { name: 'No runs match these filters' });
  await expect(empty).toContainText('No skill is named tally_knwon now: check its spelling (names are exact), or it was deleted and none of its runs match.');
  await page.screenshot({ path: 'test-results/screens/runs-unknown-skill.png' });
  // a skill that exists, with nothing matching the other filters: no such words
  await page.goto('/runs?skill=tally_known&status=queued');
  await expect(page.getByRole('heading', { name: 'No runs match these filters' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'No runs match these filters' })).not.toContainText('No skill is named');
});
