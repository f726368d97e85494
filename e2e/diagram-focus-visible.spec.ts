// A keyboard user tabbing through the diagram sees which card has the focus. React Flow takes the
// outline off a focused node, so the cards had no focus ring: Tab moved through them invisibly.
import { expect, test } from '@playwright/test';
import { atEachWidth } from './widths';

test('a diagram card reached with Tab shows a focus ring', async ({ page }) => {
  await atEachWidth(page, '/skills/blog_writer', async (width) => {
    const diagram = page.getByRole('region', { name: 'Skill diagram' });
    const first = diagram.getByRole('group', { name: 'phase draft (entry)', exact: true });
    await expect(first).toBeVisible();
    // from the splitter just before the diagram, one Tab reaches the first card
    await page.getByRole('separator', { name: 'Resize the editor and the diagram' }).focus();
    await page.keyboard.press('Tab');
    await expect(first).toBeFocused();
    const ring = await first.locator('[data-kind="phase"]').evaluate((el) => {
      const s = getComputedStyle(el);
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
    });
    expect(ring.style, `focus ring at ${width} px`).not.toBe('none');
    expect(ring.width).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Tab');
    await expect(diagram.getByRole('group', { name: 'phase review', exact: true })).toBeFocused();
    await page.screenshot({ path: `test-results/screens/diagram-focus-${width}.png` });
  });
});
