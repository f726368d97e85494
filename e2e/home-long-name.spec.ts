// The skills table with a skill named with all 64 characters a name may have: the name wraps in its
// cell, and every row's last run and its Rename and Delete stay in view. Before, the name stayed on
// one line and at 1024 px pushed the Last run column and the row actions out of the table's box.
import { expect, test } from '@playwright/test';
import { atEachWidth } from './widths';

test('a 64-character skill name wraps; every row keeps its actions in view', async ({ page, request }) => {
  const long = `w${'x'.repeat(62)}z`;
  expect((await request.post('/api/skills', { data: { name: long } })).status()).toBe(201);
  await atEachWidth(page, '/', async (width) => {
    const table = page.getByRole('table', { name: 'Skills' });
    await expect(table.getByRole('link', { name: long })).toBeVisible();
    // the table fits its box: nothing to scroll sideways to
    expect(await table.evaluate((el) => el.parentElement!.scrollWidth <= el.parentElement!.clientWidth + 1), `no sideways scroll at ${width} px`).toBe(true);
    const box = (await table.boundingBox())!;
    for (const button of await table.getByRole('button', { name: /^Delete/ }).all()) {
      const b = (await button.boundingBox())!;
      expect(b.x + b.width, `Delete inside the table at ${width} px`).toBeLessThanOrEqual(box.x + box.width + 0.5);
      expect(b.x + b.width, `Delete inside the window at ${width} px`).toBeLessThanOrEqual(width);
    }
    // the name is drawn whole, over two lines rather than cut
    const link = table.getByRole('link', { name: long });
    expect(await link.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await page.screenshot({ path: `test-results/screens/home-long-name-${width}.png` });
  });
});
