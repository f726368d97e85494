// Helpers for browser tests of the editor.
import { expect, type Locator, type Page } from '@playwright/test';

/** Hovers `target` until Monaco's hover `hover` shows: the YAML worker may still be starting on the first hover. */
export async function hoverUntilShown(page: Page, target: Locator, hover: Locator, timeout = 20_000): Promise<void> {
  await expect(async () => {
    await page.mouse.move(0, 0);
    await target.hover();
    await expect(hover).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout });
}
