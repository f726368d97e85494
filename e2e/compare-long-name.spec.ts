// A run card of the compare page with a long skill name: the name wraps only after its `_`, never
// inside a word, stays inside its column, and keeps the whole name in its title; a short name beside
// it stays on one line. Before, the card broke "summarize_customer_feedback_weekly" at whatever
// letter met the column's edge ("summarize_custo / mer_feedba / ck_weekly").
import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

const LONG = 'summarize_customer_feedback_weekly';
const SHORT = 'cmp_short';

async function runOf(request: APIRequestContext, skill: string): Promise<string> {
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: skill, from: 'summarize' } })).status());
  const res = await request.post('/api/runs', { data: { skill, input: { path: 'report.txt' } } });
  expect(res.status(), await res.text()).toBe(201);
  const { runId } = (await res.json()) as { runId: string };
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 120_000 }).toBe('completed');
  return runId;
}

/** the name's line breaks, as "<last character of a line>|<first of the next>", read from where each character is drawn */
function lineBreaks(dd: Locator): Promise<string[]> {
  return dd.evaluate((el) => {
    const breaks: string[] = [];
    let lastTop: number | null = null;
    let prev = '';
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
      for (let i = 0; i < n.data.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const top = Math.round(r.getBoundingClientRect().top);
        if (lastTop !== null && Math.abs(top - lastTop) > 4) breaks.push(`${prev}|${n.data[i]}`);
        lastTop = top;
        prev = n.data[i];
      }
    }
    return breaks;
  });
}

test('a long skill name in a compare card wraps at its underscores, whole in its title; a short one stays on a line', async ({ page, request }) => {
  const a = await runOf(request, LONG);
  const b = await runOf(request, SHORT);
  await page.goto(`/runs/compare?a=${a}&b=${b}`);
  const comparison = page.getByRole('region', { name: 'Comparison' });
  const skillOf = (card: string) => comparison.getByRole('group', { name: card }).locator('div', { has: page.locator('dt', { hasText: /^Skill$/ }) }).locator('dd');

  const long = skillOf('Run A');
  await expect(long).toHaveText(LONG);
  const breaks = await lineBreaks(long);
  expect(breaks.length, 'the name is wider than its column here: it wraps').toBeGreaterThan(0);
  for (const at of breaks) expect(at, `a break after a "_", not inside a word (${breaks.join(', ')})`).toMatch(/^_\|/);
  await expect(long.getByTitle(LONG)).toBeVisible();
  // inside its column: nothing drawn over the next fact, nothing cut (every word fits a line)
  expect(await long.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  for (const part of await long.locator('span > span > span').all()) expect(await part.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);

  const short = skillOf('Run B');
  await expect(short).toHaveText(SHORT);
  expect(await lineBreaks(short)).toEqual([]);

  await comparison.getByRole('group', { name: 'Run A' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/compare-long-name.png' });
  await shotOf(comparison.getByRole('group', { name: 'Run A' }).locator('xpath=..'), 'test-results/screens/compare-long-name-cards.png');
});
