// The studio is the page's main landmark, one of it, as the runs pages are: a screen reader's "main"
// goes to the editor and the diagram. Before, the studio page had no <main> at all.
import { expect, test } from '@playwright/test';

test('studio: one main landmark, holding the editor and the diagram', async ({ page }) => {
  await page.goto('/skills/blog_writer');
  const main = page.getByRole('main');
  await expect(main).toHaveCount(1);
  await expect(main.getByRole('tablist', { name: 'Files of the bundle' })).toBeVisible();
  await expect(main.getByRole('region', { name: 'Skill diagram' })).toBeVisible();
  await expect(main.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('main main')).toHaveCount(0);
});
