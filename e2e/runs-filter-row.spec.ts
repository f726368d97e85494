// The runs list's filter bar fits one row at 1440 px: before, its Filter button went alone to a
// second row (the search box was a fixed 220 px and a select as wide as its longest choice). At
// 1024 px it wraps, and Needs attention, Filter and Clear filters go to the next row together.
import { expect, test, type Page } from '@playwright/test';
import { failedTallyRun } from './skill-runs';
import { atEachWidth } from './widths';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

/**
 * each control of the bar: its name, its row (the bottom of the bar's item it is in: the bar's items
 * align to the bottom of their row), its right edge and width
 */
const controls = (page: Page) =>
  page.getByRole('search', { name: 'Filter runs' }).evaluate((form) => {
    const box = form.getBoundingClientRect();
    const out = [...form.querySelectorAll('input:not([type=hidden]), select, button, a')].map((el) => {
      const r = el.getBoundingClientRect();
      let item: Element = el;
      while (item.parentElement && item.parentElement !== form) item = item.parentElement;
      return { name: el.getAttribute('name') ?? el.textContent?.trim() ?? '?', bottom: Math.round(item.getBoundingClientRect().bottom), right: r.right, width: r.width };
    });
    return { out, right: box.right };
  });

const rowOf = (cs: { name: string; bottom: number }[], name: string) => cs.find((c) => c.name === name)!.bottom;

test('the filter bar fits one row at 1440 px; at 1024 px Filter wraps with Needs attention, never alone', async ({ page, request }) => {
  // a long skill name and a failure point: choices of the data's, in the Skill and Failed at selects
  await failedTallyRun(request, 'quarterly_report_summarizer_second_draft');
  for (const url of ['/runs', '/runs?status=aborted']) {
    await atEachWidth(page, url, async (width) => {
      await expect(page.getByRole('combobox', { name: 'Failed at' })).toBeEnabled();
      const { out, right } = await controls(page);
      const rows = new Set(out.map((c) => c.bottom));
      if (width === 1440) expect(rows.size, `${url} at 1440 px: ${JSON.stringify(out)}`).toBe(1);
      // Filter shares its row with Needs attention (and Clear filters), the search is still usable,
      // nothing sticks out of the bar
      expect(rowOf(out, 'Filter'), `${url} at ${width} px`).toBe(rowOf(out, 'attention'));
      expect(out.filter((c) => c.bottom === rowOf(out, 'Filter')).length).toBeGreaterThan(1);
      expect(out.find((c) => c.name === 'q')!.width).toBeGreaterThanOrEqual(140);
      for (const c of out) expect(c.right, `${c.name} at ${width} px`).toBeLessThanOrEqual(right + 0.5);
      // a capped select still shows its "any" words whole (text, then its padding and arrow)
      const [text, inner] = await page.getByRole('combobox', { name: 'Failed at' }).evaluate((el: HTMLSelectElement) => {
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = getComputedStyle(el).font;
        return [ctx.measureText(el.selectedOptions[0].text).width, el.clientWidth];
      });
      expect(inner, `"Any stage or step" at ${width} px`).toBeGreaterThanOrEqual(text + 24);
      await shotOf(page.getByRole('search', { name: 'Filter runs' }), `test-results/screens/runs-filter-row${url.includes('?') ? '-filtered' : ''}-${width}.png`);
    });
  }
});
