// The studio's diagram chooses its view again when its pane changes size, while the view is still the
// one it chose: after the window narrows from 1400 to 800 px a fitted skill is fitted to the narrow pane,
// and a large one (first shown from its entry, at a readable zoom) shows its entry card whole. Before,
// the view kept the 1400 px one and the cards were cut off on the right until Fit was pressed. A view
// the user moved (zoomed or panned) is theirs: a resize leaves it as it is.
import { expect, test, type Page } from '@playwright/test';
import { savedSkill } from './skill-runs';

test.describe.configure({ timeout: 120_000 });

/** how far the cards keep from each side of the view, in px (negative: cut off) */
async function margins(page: Page, selector = '.react-flow__node') {
  return page.locator('.react-flow').evaluate((flow, sel) => {
    const view = flow.getBoundingClientRect();
    const boxes = [...flow.querySelectorAll(sel)].map((e) => e.getBoundingClientRect());
    return {
      top: Math.round(Math.min(...boxes.map((b) => b.top)) - view.top),
      bottom: Math.round(view.bottom - Math.max(...boxes.map((b) => b.bottom))),
      left: Math.round(Math.min(...boxes.map((b) => b.left)) - view.left),
      right: Math.round(view.right - Math.max(...boxes.map((b) => b.right))),
    };
  }, selector);
}
const least = async (page: Page, selector?: string) => Math.min(...Object.values(await margins(page, selector)));
const transform = (page: Page) => page.locator('.react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform);

/** animation frames the view must hold still to count as settled: Fit and the zoom buttons animate it for 200 ms, a frame at a time */
const STILL_FRAMES = 8;
/**
 * The view's transform once it has settled: unchanged over STILL_FRAMES animation frames in a row, read
 * in the page (no fixed wait: as soon as an animation ends, however loaded the machine)
 */
async function settled(page: Page): Promise<string> {
  let still = '';
  await expect(async () => {
    still = await page.locator('.react-flow__viewport').evaluate(
      (el, frames) =>
        new Promise<string>((resolve, reject) => {
          let last = (el as HTMLElement).style.transform;
          let same = 0;
          let left = 120;
          const tick = () => {
            const now = (el as HTMLElement).style.transform;
            same = now === last ? same + 1 : 0;
            last = now;
            if (same >= frames) resolve(now);
            else if (--left <= 0) reject(new Error(`the view kept moving: ${now}`));
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }),
      STILL_FRAMES,
    );
  }).toPass({ timeout: 10_000 });
  return still;
}
/** the overview's mask: it draws the pane's size, so it changes once React Flow has measured a resized pane */
const overview = (page: Page) => page.locator('.react-flow__minimap-mask').getAttribute('d');

test('diagram: a fitted view is fitted again when the window narrows and widens; a view the user zoomed is kept', async ({ page, request }) => {
  await savedSkill(request, 'tally', 'tally_refit');
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/skills/tally_refit');
  const diagram = page.locator('.react-flow');
  await expect(diagram.getByRole('group', { name: 'caller contract' })).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => least(page), { message: 'every card inside the view at 1400 px' }).toBeGreaterThanOrEqual(0);
  const wide = await transform(page);

  await page.setViewportSize({ width: 800, height: 900 });
  await expect.poll(() => least(page), { message: 'every card inside the view at 800 px' }).toBeGreaterThanOrEqual(0);
  expect(await transform(page)).not.toBe(wide);
  await diagram.screenshot({ path: 'test-results/screens/diagram-refit-800.png' });
  // and back: fitted to the wider pane again
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect.poll(() => transform(page)).toBe(wide);

  // the user zooms in: the view is theirs, and a resize keeps it
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(() => transform(page)).not.toBe(wide);
  const zoomed = await settled(page);
  const at1400 = await overview(page);
  await page.setViewportSize({ width: 800, height: 900 });
  // React Flow has measured the narrower pane (a refit would be drawn in the same render), and the view held still
  await expect.poll(() => overview(page), { message: 'the overview draws the 800 px pane' }).not.toBe(at1400);
  expect(await settled(page)).toBe(zoomed);
  await diagram.screenshot({ path: 'test-results/screens/diagram-refit-kept-800.png' });

  // Fit is asked for again after the user's zoom: a resize fits again from then on
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await expect.poll(() => transform(page)).not.toBe(zoomed);
  await settled(page);
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect.poll(() => transform(page)).toBe(wide);
});

test('diagram: a large skill first shown from its entry shows the entry card whole after the window narrows', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/skills/blog_writer');
  const diagram = page.locator('.react-flow');
  const entry = diagram.getByRole('group', { name: /\(entry\)$/ });
  await expect(entry).toBeVisible({ timeout: 60_000 });
  await settled(page);
  const entrySelector = `.react-flow__node[data-id="${await entry.getAttribute('data-id')}"]`;
  await expect.poll(() => least(page, entrySelector), { message: 'the entry card inside the view at 1400 px' }).toBeGreaterThanOrEqual(0);
  await page.setViewportSize({ width: 800, height: 900 });
  await expect.poll(() => least(page, entrySelector), { message: 'the entry card inside the view at 800 px' }).toBeGreaterThanOrEqual(0);
  await diagram.screenshot({ path: 'test-results/screens/diagram-reframe-800.png' });
});
