// A message quoting a long unbroken path stays inside its dialog. Before, New file with a path over
// the 255-character limit printed the path on one line, running out of the dialog across the page.
import { expect, test } from '@playwright/test';
import { atEachWidth } from './widths';

test('New file: the message about a too-long path wraps inside the dialog', async ({ page }) => {
  await atEachWidth(page, '/skills/summarize', async (width) => {
    await page.getByRole('button', { name: '+ New file' }).click();
    const dialog = page.getByRole('dialog', { name: 'New file' });
    await dialog.getByLabel('Path').fill(`notes/${'a'.repeat(300)}.txt`);
    const message = dialog.getByText('is longer than 255 characters');
    await expect(message).toBeVisible();
    const d = (await dialog.boundingBox())!;
    const m = (await message.boundingBox())!;
    expect(m.x + m.width, `the message ends inside the dialog at ${width} px`).toBeLessThanOrEqual(d.x + d.width);
    expect(await message.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), 'nothing of it overflows').toBe(true);
    await page.screenshot({ path: `test-results/screens/dialog-long-path-${width}.png` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});
