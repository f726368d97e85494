// The studio's recent runs say each run whole at 1024 and 1440 px: a run that needs attention reads
// "run_… aborted needs attention at __post__/0 4 min ago". Before, a row was one clipped line, and at
// 1024 px the failure point left "4…" of the time.
import { expect, test } from '@playwright/test';
import { failedTallyRun } from './skill-runs';
import { atEachWidth } from './widths';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

test("a recent run's row reads whole in the studio, its failure point and time included", async ({ page, request }) => {
  const runId = await failedTallyRun(request, 'recent_row_tally');
  await atEachWidth(page, '/skills/recent_row_tally', async (width) => {
    const recent = page.getByRole('list', { name: 'Recent runs' });
    await expect(recent.getByRole('link', { name: runId })).toBeVisible({ timeout: 60_000 });
    const row = recent.getByRole('listitem').filter({ has: page.getByRole('link', { name: runId }) });
    await expect(row).toContainText('needs attention at __post__/0');
    // nothing of the row is cut: it is no wider than its box, and each part ends inside it
    const { cut, parts } = await row.evaluate((li) => {
      const box = li.getBoundingClientRect();
      const parts = [...li.children].map((c) => ({ text: c.textContent?.trim() ?? '', right: c.getBoundingClientRect().right, whole: c.scrollWidth <= c.clientWidth + 1 || c.clientWidth === 0 }));
      return { cut: li.scrollWidth > li.clientWidth + 1, parts: parts.map((p) => ({ ...p, inside: p.right <= box.right + 0.5 })) };
    });
    expect(cut, `the row at ${width} px: ${JSON.stringify(parts)}`).toBe(false);
    for (const p of parts) expect(p.inside && p.whole, `"${p.text}" at ${width} px`).toBe(true);
    expect(parts.at(-1)!.text, 'the time is the last part').toMatch(/ago|just now/);
    await shotOf(page.getByRole('region', { name: 'Recent runs' }), `test-results/screens/studio-recent-row-${width}.png`);
  });
});
