// The compare page's run cards at 1024 and 1440 px: each fact (Tokens, Took) and its "vs A" note
// read on lines of their own, a figure never broken. Before, five columns left each ~80 px at
// 1024 px: B's tokens read "vs A: / +19,740 / tokens" over three lines and its time "+702 / ms".
import { expect, test } from '@playwright/test';
import { failedTallyRun, ranTo, savedLoopSkill } from './skill-runs';
import { atEachWidth } from './widths';

test.describe.configure({ timeout: 240_000 });

test('compare: the run cards’ figures and their notes against A are not broken', async ({ page, request }) => {
  const a = await failedTallyRun(request, 'tally_cards');
  await savedLoopSkill(request, 'loop_cards', 20, { failAtVisit: 15 });
  const b = await ranTo(request, 'loop_cards', { n: 0 }, 'aborted');
  await atEachWidth(page, `/runs/compare?a=${a}&b=${b}`, async (width) => {
    const notes = page.getByText(/^vs A: /);
    await expect(notes).toHaveCount(2);
    for (const note of await notes.all()) {
      // the lines its text is drawn on: the distinct tops of its text's boxes
      const lines = await note.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
      });
      expect(lines, `"${await note.textContent()}" on one line at ${width} px`).toBe(1);
    }
    await page.screenshot({ path: `test-results/screens/compare-cards-${width}.png`, clip: { x: 0, y: 0, width, height: 520 } });
  });
});
