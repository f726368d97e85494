// What a layout measurement of a run page waits for, instead of a fixed time: the timeline settled.
// Every visit it draws is read (none `aria-busy`, the outline it shows while its page of visits is
// read), and `item` holds its place over a few animation frames: the visits about it measured as
// drawn, the box's scroll that keeps it in view done.
import { expect, type Locator } from '@playwright/test';

/** frames `item` must not move for: the virtualizer measures a drawn row within one */
const STILL_FRAMES = 6;

/** whether `item` stays where it is over STILL_FRAMES animation frames */
function holdsStill(item: Locator): Promise<boolean> {
  return item.evaluate(
    (el, frames) =>
      new Promise<boolean>((resolve) => {
        const at = el.getBoundingClientRect();
        let n = 0;
        const tick = () => {
          const now = el.getBoundingClientRect();
          if (Math.abs(now.top - at.top) > 0.5 || Math.abs(now.left - at.left) > 0.5) return resolve(false);
          if (++n >= frames) return resolve(true);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    STILL_FRAMES,
  );
}

export async function timelineSettled(timeline: Locator, item: Locator): Promise<void> {
  const reading = timeline.locator('article[aria-busy="true"]');
  await expect
    .poll(async () => (await reading.count()) === 0 && (await holdsStill(item)), { message: 'the timeline settles: every visit drawn read, the item still', timeout: 30_000, intervals: [50, 100, 250] })
    .toBe(true);
}
