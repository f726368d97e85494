// The home page's Last run of a blocked run ("completed · blocked needs attention") stays in its cell
// at 1440 and 1024 px: kept on one line, its "needs attention" ran out of the cell into Rename. At 800 px
// (a window beside another) the row fits the table's box too: with the description kept 240 px wide, it
// was 40 px wider than the box and Delete was cut off at its edge ("Dele"), reached only by scrolling.
import { expect, test } from '@playwright/test';
import { ranTo, savedExample } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

test("a blocked last run's words stay in the Last run cell, clear of Rename", async ({ page, request }) => {
  const name = 'home_fits_brief';
  const files = await savedExample(request, 'research_brief', name);
  await ranTo(request, name, JSON.parse(files['input.json']) as Record<string, unknown>, 'completed');

  for (const width of [1440, 1024, 800]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    const row = page.getByRole('table', { name: 'Skills' }).getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
    const cell = row.getByRole('cell').nth(2);
    await expect(cell).toContainText('needs attention');
    const cellBox = (await cell.boundingBox())!;
    const attention = cell.getByText('needs attention');
    const attentionBox = (await attention.boundingBox())!;
    expect(attentionBox.x + attentionBox.width, `at ${width} px`).toBeLessThanOrEqual(cellBox.x + cellBox.width);
    const renameBox = (await row.getByRole('button', { name: /Rename/ }).boundingBox())!;
    expect(attentionBox.x + attentionBox.width, `at ${width} px`).toBeLessThan(renameBox.x);
    const table = page.getByRole('table', { name: 'Skills' });
    expect(await table.evaluate((el) => el.parentElement!.scrollWidth - el.parentElement!.clientWidth), `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
    const deleteBox = (await row.getByRole('button', { name: /^Delete/ }).boundingBox())!;
    const wrapBox = (await table.locator('xpath=..').boundingBox())!;
    expect(deleteBox.x + deleteBox.width, `Delete inside the table's box at ${width} px`).toBeLessThanOrEqual(wrapBox.x + wrapBox.width);
    await shotOf(row, `test-results/screens/home-last-run-fits-${width}.png`);
  }
});
