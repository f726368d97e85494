// The compare form's Run A and Run B fields show a whole run id at 1024 and 1440 px. Before, the
// browser's default input width cut the last characters of B's id (seen on an unknown A beside a
// real B: "run_mx7w8vkg714fa93f0" with its end hidden).
import { expect, test } from '@playwright/test';
import { atEachWidth } from './widths';

test('the compare form shows whole run ids in both fields', async ({ page }) => {
  // ids of a run's length (run_ and 18 more); neither exists, so the form is shown with both
  const [a, b] = ['run_mx7w8vkg714fa93f0a', 'run_mx7w8vkz2253521024'];
  await atEachWidth(page, `/runs/compare?a=${a}&b=${b}`, async (width) => {
    await expect(page.getByRole('alert').filter({ hasText: 'No run with id' })).toContainText(`No run with id ${a} (Run A)`);
    for (const [name, id] of [['Run A', a], ['Run B', b]]) {
      const field = page.getByLabel(name, { exact: true });
      await expect(field).toHaveValue(id);
      const { scroll, client } = await field.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(scroll, `${name} whole at ${width} px`).toBeLessThanOrEqual(client);
    }
    await page.screenshot({ path: `test-results/screens/compare-id-whole-${width}.png` });
  });
});
