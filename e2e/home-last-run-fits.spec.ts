// The home page's Last run of a blocked run ("completed · blocked needs attention") stays in its cell
// at 1440 and 1024 px: kept on one line, its "needs attention" ran out of the cell into Rename.
import { expect, test } from '@playwright/test';
import { ranTo, savedExample } from './skill-runs';

test.describe.configure({ timeout: 240_000 });

test("a blocked last run's words stay in the Last run cell, clear of Rename", async ({ page, request }) => {
  const name = 'home_fits_brief';
  const files = await savedExample(request, 'research_brief', name);
  await ranTo(request, name, JSON.parse(files['input.json']) as Record<string, unknown>, 'completed');

  for (const width of [1440, 1024]) {
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
    await row.screenshot({ path: `test-results/screens/home-last-run-fits-${width}.png` });
  }
});
