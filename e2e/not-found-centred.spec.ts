// The page for an address with nothing behind it (an unknown skill or run) draws its "404" above the
// middle of its heading, at 800 and 1280 px. Before, the "404" sat some 50 px left of centre: the
// rule that narrows the page's paragraphs to 46ch narrowed it too, and its own margin undid the
// auto margins that centre that box.
import { expect, test } from '@playwright/test';

for (const width of [800, 1280]) {
  test(`the 404 of an unknown skill is centred over its heading at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/skills/no_such_skill_here');
    const heading = page.getByRole('heading', { name: 'Nothing here' });
    await expect(heading).toBeVisible();
    const centre = async (box: { x: number; width: number } | null) => box!.x + box!.width / 2;
    // the text itself, not its box: a range over the "404"
    const code = await page.getByText('404', { exact: true }).evaluate((el) => {
      const r = document.createRange();
      r.selectNodeContents(el);
      const b = r.getBoundingClientRect();
      return { x: b.x, width: b.width };
    });
    const headingText = await heading.evaluate((el) => {
      const r = document.createRange();
      r.selectNodeContents(el);
      const b = r.getBoundingClientRect();
      return { x: b.x, width: b.width };
    });
    // letter-spacing adds a little after the last digit: a few px either way is centred
    expect(Math.abs((await centre(code)) - (await centre(headingText)))).toBeLessThanOrEqual(6);
    await page.screenshot({ path: `test-results/screens/not-found-${width}.png` });
  });
}
