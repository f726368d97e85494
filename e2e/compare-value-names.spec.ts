// The compare page's value disclosures (a divergence's "The value" or "Both values, whole") are each
// named for the value they hold: the step's position and the sides it is in. Before, each was an
// unnamed group whose control read "The value", one like the next: a screen reader user could not
// tell which step's value a control would show.
import { expect, test } from '@playwright/test';
import { ranTo, savedLoopSkill } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

test('compare: each value disclosure is named by its step and its sides', async ({ page, request }) => {
  await savedLoopSkill(request, 'vals_a', 3);
  const a = await ranTo(request, 'vals_a', { n: 0 }, 'completed');
  await savedLoopSkill(request, 'vals_b', 12, { failAtVisit: 9 });
  const b = await ranTo(request, 'vals_b', { n: 0 }, 'aborted');
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/runs/compare?a=${a}&b=${b}`);
    const list = page.getByRole('list', { name: 'Differences between A and B' });
    await expect(list).toBeVisible({ timeout: 60_000 });
    const items = list.locator(':scope > li');
    const count = await items.count();
    expect(count, 'the runs differ at several steps').toBeGreaterThan(2);
    const names: string[] = [];
    const sides = new Set<string>();
    for (const item of await items.all()) {
      const position = (await item.getAttribute('aria-label'))!.replace(/^Divergence \d+ at /, '');
      const details = item.locator('details');
      if (!(await details.count())) continue;
      const summary = details.locator('summary');
      const shown = (await summary.evaluate((s) => (s.firstChild?.textContent ?? '').trim()))!;
      expect(['The value', 'Both values, whole']).toContain(shown);
      // the control says what it shows first, then whose value it is
      const name = await summary.evaluate((s) => s.textContent!.replace(/\s+/g, ' ').trim());
      expect(name.startsWith(shown), name).toBe(true);
      expect(name, 'names its step').toContain(` at ${position}`);
      expect(name, 'names its sides').toMatch(/, (in A only|in B only|in A and B)$/);
      sides.add(name.replace(/^.*, in /, ''));
      await expect(summary).toHaveAccessibleName(name);
      // the disclosure's group is named as its control
      await expect(details).toHaveAccessibleName(name);
      await expect(list.getByRole('group', { name, exact: true })).toHaveCount(1);
      names.push(name);
    }
    expect(names.length, 'values to disclose').toBeGreaterThan(2);
    expect(new Set(names).size, names.join('\n')).toBe(names.length);
    expect(sides.size, `values of one side and of both: ${[...sides].join(', ')}`).toBeGreaterThan(1);
    await list.locator('details').first().locator('summary').click();
    await shotOf(list, `test-results/screens/compare-value-names-${width}.png`);
  }
});
