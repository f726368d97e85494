// A run opened on a failure in its last visit shows the failed step whole in the timeline's box, at
// 1024 and 1440 px. Before, the box was scrolled to the step once, then the visits about it were
// measured as they were drawn and moved it: at 1024 px only its top edge showed at the bottom of the
// box (a sliver, which "in the viewport" still counted as shown).
// The run is the loop skill of the benchmarks, 60 loops, failing at its 50th visit of work (~740 events).
import { expect, test, type Locator } from '@playwright/test';
import { ranTo, savedLoopSkill } from './skill-runs';
import { timelineSettled } from './timeline-settled';
import { atEachWidth } from './widths';

test.describe.configure({ timeout: 240_000 });

/** whether `item` lies wholly inside `box` and the window */
async function isWholeIn(item: Locator, box: Locator, height: number): Promise<boolean> {
  const [a, b] = [await item.boundingBox(), await box.boundingBox()];
  if (!a || !b) return false;
  return a.y >= b.y - 1 && a.y + a.height <= b.y + b.height + 1 && a.y >= 0 && a.y + a.height <= height;
}

test('a run opened on its late failure shows the failed step whole in the timeline box', async ({ page, request }) => {
  await savedLoopSkill(request, 'loop_whole', 60, { failAtVisit: 50 });
  const runId = await ranTo(request, 'loop_whole', { n: 0 }, 'aborted');
  await atEachWidth(page, `/runs/${runId}`, async (width) => {
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const step = timeline.getByRole('list', { name: 'Steps' }).getByRole('listitem', { name: 'work#50/pre/0 validate failed' });
    await expect(step).toHaveAttribute('aria-current', 'true');
    // the visits about it are read and drawn, and measured, after it is first scrolled to
    await timelineSettled(timeline, step);
    await page.screenshot({ path: `test-results/screens/selected-failure-whole-${width}.png` });
    expect(await isWholeIn(step, timeline.locator('[data-zoom]'), 900), `the failed step whole in the box at ${width} px`).toBe(true);
  });
});
