// The timeline's items read whole at 1280 px and in an 800 px window: a long model turn's text is
// cut with an ellipsis and says itself whole in its title (before: cut at a height, mid-line, with
// no way to read the rest but selecting it), no item's text runs out of its box, and the header's
// figures wrap under the title (before: "… model latency in total" ran out of the box at 800 px).
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ranTo, savedLoopSkill } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

const LONG_TEXT =
  'Reading the notes for step 1, then checking each of the numbers in them against the source table before I write anything down, because the last report quoted two figures that did not match the appendix.';

/** the loop skill with a long first turn text and long capability names, run to its end */
async function longWordsRun(request: APIRequestContext): Promise<string> {
  await savedLoopSkill(request, 'loop_long_words', 2, {
    editSkillMd: (md) => md.replace('name: fact_check', 'name: fact_check_every_figure_against_the_appendix_table').replace('name: result_budget', 'name: tool_result_budget_for_notes_files_read_by_the_model'),
  });
  const files = ((await (await request.get('/api/skills/loop_long_words')).json()) as { version: { files: Record<string, string> } }).version.files;
  files['model.yaml'] = files['model.yaml'].replace('text: Reading the notes for step 1.', `text: "${LONG_TEXT}"`);
  expect((await request.post('/api/skills/loop_long_words/versions', { data: { files } })).status()).toBe(201);
  return ranTo(request, 'loop_long_words', { n: 0 }, 'completed');
}

test("timeline items and header read whole, or say the rest in a title, at 1280 and 800 px", async ({ page, request }) => {
  const runId = await longWordsRun(request);
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/runs/${runId}`);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const round = timeline.getByRole('group', { name: 'Round 1' }).first();
    await expect(round).toBeVisible({ timeout: 30_000 });
    const turnText = round.getByText(/^Reading the notes for step 1/);
    await expect(turnText).toHaveAttribute('title', LONG_TEXT);
    const found = await timeline.evaluate((root) => {
      const box = root.getBoundingClientRect();
      // the header's words inside the box
      const head = [...root.querySelectorAll('h2 ~ span, h2 + span')].filter((e) => e.getBoundingClientRect().right > box.right + 1).map((e) => e.textContent);
      // an item's text that is cut (wider or taller than its box) says itself whole in a title
      const cut: string[] = [];
      for (const el of root.querySelectorAll<HTMLElement>('[data-round] button span, [data-round] button code')) {
        const isCut = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
        if (isCut && !(el.title && el.title === el.textContent)) cut.push(el.textContent ?? '');
      }
      // no item runs out of its lane
      const out = [...root.querySelectorAll<HTMLElement>('[data-round] li, [data-round] [data-status]')].filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent);
      return { head, cut, out };
    });
    expect(found, `at ${width} px`).toEqual({ head: [], cut: [], out: [] });
    await shotOf(timeline, `test-results/screens/timeline-item-text-${width}.png`);
  }
});
