// The studio's diagram of a skill that loops (check hands back to work, the entry) is fitted with room
// for the loop's edge: it comes into the top card from above, and the card and the edge are drawn
// wholly inside the view, clear of its edges. Before, at 1440 px the top card sat against the view's
// top edge with the loop coming in from above it, cut off.
import { expect, test, type Page } from '@playwright/test';
import { savedLoopSkill } from './skill-runs';
import { atEachWidth } from './widths';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

/** how far the drawing keeps from each side of the view: the nearest card, edge or edge label, per side, in px */
async function margins(page: Page) {
  return page.locator('.react-flow').evaluate((flow) => {
    const view = flow.getBoundingClientRect();
    const boxes = [...flow.querySelectorAll('.react-flow__node, .react-flow__edge-path, .react-flow__edge-textbg')].map((e) => e.getBoundingClientRect());
    return {
      top: Math.round(Math.min(...boxes.map((b) => b.top)) - view.top),
      bottom: Math.round(view.bottom - Math.max(...boxes.map((b) => b.bottom))),
      left: Math.round(Math.min(...boxes.map((b) => b.left)) - view.left),
      right: Math.round(view.right - Math.max(...boxes.map((b) => b.right))),
    };
  });
}

test('diagram: a loop back to the entry and the top card are fitted wholly inside the view', async ({ page, request }) => {
  await savedLoopSkill(request, 'loop_fit', 2);
  await atEachWidth(page, '/skills/loop_fit', async (width) => {
    const diagram = page.locator('.react-flow');
    await expect(diagram.getByRole('group', { name: 'caller contract' })).toBeVisible({ timeout: 60_000 });
    const loop = diagram.getByRole('img', { name: 'from phase check to phase work' });
    await expect(loop).toHaveCount(1);
    // the first picture: fitted, or (too small to read fitted, as in the 1024 px window's pane) from
    // the entry down at a readable zoom, its foot below the view
    await page.waitForTimeout(400);
    const first = await margins(page);
    for (const side of ['top', 'left', 'right'] as const) expect(first[side], `${side} margin at ${width} px, first (${JSON.stringify(first)})`).toBeGreaterThanOrEqual(16);
    await shotOf(diagram, `test-results/screens/diagram-loop-first-${width}.png`);
    // Fit: all of it, clear of every side
    await page.getByRole('button', { name: 'Fit', exact: true }).click();
    await page.waitForTimeout(500); // its 200 ms animation
    const fitted = await margins(page);
    for (const [side, px] of Object.entries(fitted)) expect(px, `${side} margin at ${width} px, Fit (${JSON.stringify(fitted)})`).toBeGreaterThanOrEqual(16);
    await shotOf(diagram, `test-results/screens/diagram-loop-fit-${width}.png`);
  });
});
