// The studio's Versions panel closes on Escape — pressed in the panel or on the control that opened
// it — and focus goes back to that control, as it does after its Close button.
import { expect, test } from '@playwright/test';

test.describe.configure({ timeout: 180_000 });

test('Escape closes the Versions panel and returns focus to the Versions button', async ({ page }) => {
  await page.goto('/skills/summarize');
  const opener = page.getByRole('button', { name: /^Versions \(/ });
  await expect(opener).toBeEnabled({ timeout: 60_000 });
  const panel = page.getByRole('complementary', { name: 'Versions' });

  // opened and left with focus in the panel (its Close button): Escape closes it, focus back on the opener
  await opener.click();
  await expect(panel).toBeVisible();
  await expect(opener).toHaveAttribute('aria-expanded', 'true');
  await panel.getByRole('button', { name: 'Close' }).focus();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(opener).toHaveAttribute('aria-expanded', 'false');
  await expect(opener).toBeFocused();

  // opened from the keyboard, focus still on the opener: Escape closes it too
  await page.keyboard.press('Enter');
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(opener).toBeFocused();

  // the Close button returns focus the same way
  await opener.click();
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(panel).toHaveCount(0);
  await expect(opener).toBeFocused();
});
