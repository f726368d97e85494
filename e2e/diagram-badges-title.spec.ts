// A phase card with badges keeps its name readable whole: `summarize`, both terminal and unreachable,
// read "summ…" with the badges beside it. The badges go under the name when the line is full, and the
// card shows every one of its rows all the same.
import { expect, test } from '@playwright/test';
import { fixtureFiles } from './skill-runs';
import { shotOf } from './shots';

test('diagram: a phase with the terminal and unreachable badges shows its whole name', async ({ page, request }) => {
  const name = 'badge_title';
  expect((await request.post('/api/skills', { data: { name } })).status()).toBe(201);
  const files = fixtureFiles('tally', name);
  files['skill.md'] = files['skill.md'].replace('  count: []\n', '  count: []\n  summarize: []\n') + '\n## summarize\nSum it up.\n';
  const saved = await request.post(`/api/skills/${name}/versions`, { data: { files } });
  expect(saved.status(), await saved.text()).toBe(201);

  for (const width of [1400, 800]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/skills/${name}`);
    const diagram = page.locator('.react-flow');
    const card = diagram.getByRole('group', { name: 'phase summarize invalid', exact: true });
    await expect(card).toBeVisible({ timeout: 60_000 });
    await expect(card.getByText('terminal', { exact: true })).toBeVisible();
    await expect(card.getByText('unreachable', { exact: true })).toBeVisible();
    const title = card.getByText('summarize', { exact: true });
    expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth), 'the name is not cut').toBe(true);
    // every badge whole, and inside the card
    for (const badge of ['terminal', 'unreachable']) {
      const b = card.getByText(badge, { exact: true });
      expect(await b.evaluate((el) => el.scrollWidth <= el.clientWidth), `${badge} not cut`).toBe(true);
    }
    // nothing of the card cut off at its foot: every row below the head ends inside it
    const cut = await card.locator('[data-kind="phase"]').evaluate((el) => {
      const bottom = el.getBoundingClientRect().bottom;
      return [...el.children].filter((c) => !c.classList.contains('react-flow__handle') && c.getBoundingClientRect().bottom > bottom + 0.5).map((c) => c.textContent);
    });
    expect(cut, 'rows cut off at the card\'s foot').toEqual([]);
    await shotOf(card, `test-results/screens/diagram-badges-title-${width}.png`, { scale: 'css' });
    await expect(diagram.getByRole('group', { name: 'phase count (entry)', exact: true })).toBeVisible();
  }
});
