// What the diagram's browser tests read of its view: how far the cards keep from the view's sides, the
// view's transform, and that transform once it has settled (held still for some animation frames).
import { expect, type Page } from '@playwright/test';

/** how far the cards keep from each side of the view, in px (negative: cut off) */
export async function margins(page: Page, selector = '.react-flow__node') {
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
export const least = async (page: Page, selector?: string) => Math.min(...Object.values(await margins(page, selector)));
export const transform = (page: Page) => page.locator('.react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform);

/** animation frames the view must hold still to count as settled: Fit and the zoom buttons animate it for 200 ms, a frame at a time */
const STILL_FRAMES = 8;
/**
 * The view's transform once it has settled: unchanged over STILL_FRAMES animation frames in a row, read
 * in the page (no fixed wait: as soon as an animation ends, however loaded the machine)
 */
export async function settled(page: Page): Promise<string> {
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
export const overview = (page: Page) => page.locator('.react-flow__minimap-mask').getAttribute('d');

