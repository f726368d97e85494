// The run timeline's lanes read cleanly at 1024 and 1440 px: a stage's status chip sits on the line of
// its name, and a figure keeps its unit ("40 tok", "0 ms"). Before, a round of five lanes (model turn,
// post-model, tool calls, post-tool, finalize) gave each ~140 px at 1440 px: "skipped" wrapped under
// its stage's name and "1260 → 40 tok · 0 ms" left "ms" alone on a line.
import { expect, test } from '@playwright/test';
import { ranTo, savedLoopSkill } from './skill-runs';
import { atEachWidth } from './widths';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

test('timeline: a lane keeps a chip on its name’s line and a figure with its unit', async ({ page, request }) => {
  await savedLoopSkill(request, 'loop_lanes', 3, { failAtVisit: 3 });
  const runId = await ranTo(request, 'loop_lanes', { n: 0 }, 'aborted');
  await atEachWidth(page, `/runs/${runId}`, async (width) => {
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const round = timeline.getByRole('group', { name: 'Round 1' }).first();
    await expect(round).toBeVisible({ timeout: 30_000 });
    await expect(round.getByRole('group', { name: 'finalize lane' })).toBeVisible();
    const found = await timeline.evaluate((root) => {
      const top = (r: DOMRect) => r.top + r.height / 2;
      // every item's status chip against its name: the chip's middle within the name's line
      const chips: string[] = [];
      let items = 0;
      for (const label of root.querySelectorAll('[data-round] li button > span:first-child')) {
        const name = label.querySelector('code');
        const chip = label.querySelector('.status');
        if (!name || !chip) continue;
        items++;
        const n = name.getBoundingClientRect();
        if (Math.abs(top(chip.getBoundingClientRect()) - top(n)) > n.height / 2) chips.push(label.textContent ?? '');
      }
      // every figure and its unit on one line
      const broken: string[] = [];
      let figures = 0;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        for (const m of (t.textContent ?? '').matchAll(/\d\s(tok|ms|s)\b/g)) {
          figures++;
          const range = document.createRange();
          range.setStart(t, m.index);
          range.setEnd(t, m.index + m[0].length);
          if (new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size > 1) broken.push(t.textContent ?? '');
        }
      }
      const lanes = [...root.querySelectorAll('[data-round] > div:last-child > div')].map((l) => Math.round(l.getBoundingClientRect().width));
      return { items, chips, figures, broken, lanes };
    });
    expect(found.items, 'items with a status chip are drawn').toBeGreaterThan(2);
    expect(found.figures, 'figures with units are drawn').toBeGreaterThan(2);
    expect(found.chips, `chips under their names at ${width} px`).toEqual([]);
    expect(found.broken, `figures apart from their units at ${width} px`).toEqual([]);
    expect(Math.min(...found.lanes), `the narrowest lane at ${width} px (${found.lanes.join(', ')})`).toBeGreaterThanOrEqual(180);
    await shotOf(round, `test-results/screens/timeline-lanes-${width}.png`);
  });
});
