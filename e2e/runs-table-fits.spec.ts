// The runs table fits the window at 800 px as at 1280 px: every column (Started and Took too) is on
// screen at first, not past a sideways scroll, and each keeps its header's name.
import { expect, test, type Page } from '@playwright/test';
import { failedTallyRun, itselfFailedRun, ranTo, savedLoopSkill } from './skill-runs';

test.describe.configure({ timeout: 180_000 });

const COLUMNS = ['Run', 'Skill', 'Status', 'Model', 'Started', 'Took'];

async function fits(page: Page, width: number) {
  await page.setViewportSize({ width, height: 900 });
  await page.goto('/runs');
  const table = page.getByRole('table', { name: 'Runs' });
  await expect(table.getByRole('link', { name: 'loop_table_fits_with_a_longer_name', exact: true })).toHaveCount(2);
  for (const name of COLUMNS) await expect(table.getByRole('columnheader', { name, exact: true })).toBeInViewport({ ratio: 1 });
  const sideways = await table.evaluate((t) => {
    const wrap = t.parentElement as HTMLElement;
    return { scroll: wrap.scrollWidth, client: wrap.clientWidth, page: document.documentElement.scrollWidth, window: window.innerWidth };
  });
  expect(sideways.scroll, `the table scrolls sideways at ${width} px`).toBeLessThanOrEqual(sideways.client);
  expect(sideways.page, `the page scrolls sideways at ${width} px`).toBeLessThanOrEqual(sideways.window);
  // every row's cells end inside the window (the rows below the fold too)
  const pastRight = await table.evaluate((t) => [...t.querySelectorAll('tbody td, tbody th')].filter((c) => c.getBoundingClientRect().right > window.innerWidth).map((c) => c.textContent));
  expect(pastRight).toEqual([]);
  // a wide window keeps a skill's name on one line (a narrow one may wrap it), its name whole
  const skill = table.getByRole('link', { name: 'loop_table_fits_with_a_longer_name', exact: true }).first();
  const lines = await skill.evaluate((a) => new Set([...a.getClientRects()].map((r) => Math.round(r.top))).size);
  if (width >= 1280) expect(lines, 'the skill name on one line').toBe(1);
  // where it wraps, it wraps after an `_`, never inside a word: each word's text sits on one line
  const splitWords = await skill.evaluate((a) =>
    [...a.childNodes]
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .filter((n) => {
        const range = document.createRange();
        range.selectNodeContents(n);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
      })
      .map((n) => n.textContent),
  );
  expect(splitWords, `words of the skill name cut across lines at ${width} px`).toEqual([]);
  await page.screenshot({ path: `test-results/screens/runs-table-${width}.png` });
}

test('the runs table fits an 800 px window and a 1280 px one, every column on screen', async ({ page, request }) => {
  await savedLoopSkill(request, 'loop_table_fits_with_a_longer_name', 1);
  const runId = await ranTo(request, 'loop_table_fits_with_a_longer_name', { n: 0 }, 'completed');
  const replayed = await request.post(`/api/runs/${runId}/replay`, { data: {} });
  expect(replayed.status(), await replayed.text()).toBe(200);
  await failedTallyRun(request, 'tally_table_fits');
  await itselfFailedRun(request, 'summarize_table_fits');
  await fits(page, 800);
  await fits(page, 1280);
});
