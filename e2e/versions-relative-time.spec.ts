// The studio's Versions panel says when each version was saved as the rest of the app does ("just now",
// "3 min ago"), the exact moment in its tooltip. Before, it read "12/5/2026, 2:36:03 AM", where the
// skills list said "just now".
import { expect, test } from '@playwright/test';
import { shotOf } from './shots';

test.describe.configure({ timeout: 120_000 });

test('the Versions panel reads "just now" for a version saved now, the exact time as its title', async ({ page }) => {
  const name = 'versions_relative';
  expect((await page.request.post('/api/skills', { data: { name } })).status()).toBe(201);
  await page.goto(`/skills/${name}`);
  const opener = page.getByRole('button', { name: /^Versions \(/ });
  await expect(opener).toBeEnabled({ timeout: 60_000 });
  await opener.click();
  const panel = page.getByRole('complementary', { name: 'Versions' });
  const saved = panel.getByRole('row').nth(1).locator('time');
  await expect(saved).toHaveText('just now');
  // the exact moment, in the reader's locale, for the tooltip; the machine-readable one in datetime
  await expect(saved).toHaveAttribute('title', /\d{4}.*\d{1,2}:\d{2}:\d{2}/);
  await expect(saved).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
  await expect(panel).not.toContainText(/\d{1,2}\/\d{1,2}\/\d{4}/);
  await shotOf(panel, 'test-results/screens/versions-relative-time.png');
});
