// The studio's top bar with a long skill name (up to the 64 characters a name may have), at 800 and
// 1280 px: the name and its "version … · saved …" line stay inside the window — the name wraps
// (after an `_` where it has one) and the version line goes under it. Before, the bar kept them on
// one line and at 800 px the version ran off the window's edge, cut to "version e".
import { expect, test } from '@playwright/test';

test.describe.configure({ timeout: 180_000 });

for (const name of [`s${'x'.repeat(62)}z`, 'summarize_customer_feedback_weekly_for_the_support_team_leads']) {
  test(`the studio bar keeps ${name.slice(0, 12)}… and its version in view`, async ({ page, request }) => {
    expect([201, 409]).toContain((await request.post('/api/skills', { data: { name } })).status());
    for (const width of [800, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/skills/${name}`);
      const heading = page.getByRole('heading', { name, exact: true, level: 1 });
      await expect(heading).toBeVisible();
      const version = page.getByText(/^version [0-9a-f]{8}/);
      await expect(version).toBeVisible();
      const right = (b: { x: number; width: number } | null) => b!.x + b!.width;
      const textRight = (el: Element) => {
        const r = document.createRange();
        r.selectNodeContents(el);
        return r.getBoundingClientRect().right;
      };
      expect(await heading.evaluate(textRight), `the name inside the window at ${width} px`).toBeLessThanOrEqual(width);
      expect(right(await version.boundingBox()), `the version inside the window at ${width} px`).toBeLessThanOrEqual(width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `nothing to scroll sideways at ${width} px`).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `test-results/screens/studio-long-name-${name.length}-${width}.png`, clip: { x: 0, y: 0, width, height: 200 } });
    }
  });
}
