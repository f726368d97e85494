// The runs list's search box keeps its placeholder whole: at 1440 px with a filter set (Clear
// filters on the row) and a long skill name among the choices, the box sits at its 140 px minimum,
// where "run id, input, error…" was cut to "run id, input, erro".
import { expect, test } from '@playwright/test';
import { failedTallyRun } from './skill-runs';
import { atEachWidth } from './widths';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

test("the search box's placeholder reads whole at both widths, filtered or not", async ({ page, request }) => {
  await failedTallyRun(request, 'quarterly_report_summarizer_third_draft');
  for (const url of ['/runs', '/runs?status=aborted', '/runs?status=aborted&attention=1']) {
    await atEachWidth(page, url, async (width) => {
      const box = page.getByRole('searchbox', { name: 'Search runs' });
      await expect(page.getByRole('combobox', { name: 'Failed at' })).toBeEnabled();
      const { text, room, placeholder } = await box.evaluate((el: HTMLInputElement) => {
        const cs = getComputedStyle(el);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = cs.font;
        return { text: ctx.measureText(el.placeholder).width, room: el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight), placeholder: el.placeholder };
      });
      expect(placeholder).toMatch(/input, error/);
      expect(text, `"${placeholder}" in ${room} px at ${width} px (${url})`).toBeLessThanOrEqual(room);
      await shotOf(page.getByRole('search', { name: 'Filter runs' }), `test-results/screens/runs-search-placeholder${url.includes('?') ? '-filtered' : ''}-${width}.png`);
    });
  }
});
