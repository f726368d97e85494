// Opening a file other than skill.md leaves the file tabs where they were: "Remove this file" is the
// open file's own action, on a bar of its own under the tabs, not in the tab row. Before, it joined the
// tab row and pushed the tabs onto a second line at 1400 px (a third at 800 px).
import { expect, test, type Page } from '@playwright/test';
import { savedSkill } from './skill-runs';

const stripHeight = async (page: Page) => (await page.getByRole('tablist', { name: 'Files of the bundle' }).boundingBox())!.height;

test('studio: opening a file keeps the tab row as it was; Remove this file still removes it', async ({ page, request }) => {
  await savedSkill(request, 'tally', 'tally_remove_bar');
  for (const width of [1400, 800]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/skills/tally_remove_bar');
    const strip = page.getByRole('tablist', { name: 'Files of the bundle' });
    await expect(strip.getByRole('tab')).toHaveCount(5);
    await expect(page.getByRole('button', { name: 'Remove this file' })).toHaveCount(0);
    const before = await stripHeight(page);
    if (width === 1400) {
      // one line of tabs
      const tab = (await strip.getByRole('tab', { name: 'skill.md' }).boundingBox())!;
      expect(before, 'one line of tabs at 1400 px').toBeLessThanOrEqual(tab.height + 1);
    }
    await strip.getByRole('tab', { name: 'note.txt' }).click();
    await expect(strip.getByRole('tab', { name: 'note.txt' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('button', { name: 'Remove this file' })).toBeVisible();
    expect(await stripHeight(page), `the tab row at ${width} px with note.txt open`).toBe(before);
    await page.screenshot({ path: `test-results/screens/studio-remove-bar-${width}.png`, clip: { x: 0, y: 0, width: Math.min(width, 760), height: 260 } });
  }
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Remove this file' }).click();
  await expect(page.getByRole('tab', { name: 'note.txt' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'skill.md' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Remove this file' })).toHaveCount(0);
});
