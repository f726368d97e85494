// The studio's file tabs at 1024 px: every tab is in view and readable whole, without scrolling the
// strip (they wrap onto a second line, as an editor's wrapped tabs do). Before, the strip scrolled
// sideways with its scrollbar hidden (overlay scrollbars, or none in a screenshot): the last tab
// showed as "note." against the New file button, and nothing said more was there.
import { expect, test } from '@playwright/test';
import { savedSkill } from './skill-runs';

test('studio at 1024 px: every file tab is in view, its name whole', async ({ page, request }) => {
  await savedSkill(request, 'tally', 'tally_tabs');
  for (const width of [1024, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/skills/tally_tabs');
    const strip = page.getByRole('tablist', { name: 'Files of the bundle' });
    await expect(strip.getByRole('tab')).toHaveCount(5);
    await expect(page.getByRole('button', { name: '+ New file' })).toBeVisible();
    const stripBox = (await strip.boundingBox())!;
    const newFile = (await page.getByRole('button', { name: '+ New file' }).boundingBox())!;
    for (const tab of await strip.getByRole('tab').all()) {
      const name = (await tab.textContent())!;
      const b = (await tab.boundingBox())!;
      expect(b.x + b.width, `${name} ends inside the strip at ${width} px`).toBeLessThanOrEqual(stripBox.x + stripBox.width + 0.5);
      expect(b.x + b.width <= newFile.x + 0.5 || b.y >= newFile.y + newFile.height || b.y + b.height <= newFile.y, `${name} clear of the New file button at ${width} px`).toBe(true);
      // the whole name drawn: nothing cut by the tab itself
      expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth), `${name} not clipped`).toBe(true);
    }
    // nothing hidden sideways: the strip itself does not scroll
    expect(await strip.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), `the tab strip holds every tab at ${width} px`).toBe(true);
    await page.getByRole('tab', { name: 'note.txt' }).click();
    await expect(page.getByRole('tab', { name: 'note.txt' })).toHaveAttribute('aria-selected', 'true');
    await page.screenshot({ path: `test-results/screens/studio-tabs-${width}.png`, clip: { x: 0, y: 0, width: Math.min(width, 700), height: 240 } });
  }
});
