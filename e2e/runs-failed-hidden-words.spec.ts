// The runs list searched for what no failed run holds: "Failed at" says the search hides the
// failures ("Hidden by search", its title saying it whole), not "No failures" as if no run had ever failed.
import { expect, test } from '@playwright/test';
import { failedTallyRun } from './skill-runs';
import { atEachWidth } from './widths';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

test('runs list: a search that hides every failed run is named in "Failed at"', async ({ page, request }) => {
  await failedTallyRun(request, 'tally_hidden');
  await atEachWidth(page, '/runs?q=no-run-holds-this', async (width) => {
    const failedAt = page.getByRole('combobox', { name: 'Failed at' });
    await expect(failedAt.locator('option:checked')).toHaveText('Hidden by search');
    await expect(failedAt).toHaveAttribute('title', 'No failed run matches the search');
    await expect(failedAt).toBeDisabled();
    await shotOf(page.getByRole('search', { name: 'Filter runs' }), `test-results/screens/runs-failed-hidden-${width}.png`);
  });
});
