// A run the model contract stopped (its phase's finish refused after the retry: no stage or step
// failed) is counted in the runs list where it stopped — its row says "at draft", and "Failed at"
// offers its phase — not "No failures" as if it had not failed. The row's "at draft" shows under
// the error's two lines, not cut off with them.
import { expect, test } from '@playwright/test';
import { ranTo, savedSkill } from './skill-runs';

test.describe.configure({ timeout: 120_000 });

test('a run stopped in its phase by its contract is listed where it stopped', async ({ page, request }) => {
  await savedSkill(request, 'contract', 'contract_stop_list');
  const runId = await ranTo(request, 'contract_stop_list', {}, 'failed');

  await page.goto('/runs?skill=contract_stop_list');
  const row = page.getByRole('table', { name: 'Runs' }).getByRole('row').filter({ has: page.getByRole('link', { name: runId }) });
  const status = row.getByRole('cell').nth(1);
  await expect(status).toContainText('at draft');
  await expect(status).toContainText('needs attention');
  // where it stopped is on screen, not under the cut of the error's two lines (its words are long)
  const place = status.locator('code', { hasText: /^draft$/ });
  const isShown = await place.evaluate((code) => {
    const at = code.getBoundingClientRect();
    for (let el = code.parentElement; el && el.tagName !== 'TD'; el = el.parentElement) {
      const box = el.getBoundingClientRect();
      if (getComputedStyle(el).overflow !== 'visible' && (at.bottom > box.bottom + 1 || at.top < box.top - 1)) return false;
    }
    return true;
  });
  expect(isShown, 'the failure point is not cut off').toBe(true);
  const failedAt = page.getByRole('combobox', { name: 'Failed at' });
  await expect(failedAt).toBeEnabled();
  await expect(failedAt.locator('option:checked')).toHaveText('Any stage or step');
  await expect(failedAt.locator('option', { hasText: /^draft$/ })).toHaveCount(1);
  await page.screenshot({ path: 'test-results/screens/runs-contract-stop.png' });
});
