// The run report's Version (skill@hash) broke inside the hash (one column of its grid of facts was
// too narrow for it: at 1440 px for a 12-character skill name, at 1024 px for a shorter one): it now
// takes two columns, and a line may break only after the `@`.
import { expect, test } from '@playwright/test';
import { ranTo, savedSkill } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

test('the run report says its version on one line at 1024 and 1440 px', async ({ page, request }) => {
  const { hash } = await savedSkill(request, 'tally', 'tally_layout');
  const runId = await ranTo(request, 'tally_layout', { path: 'note.txt' }, 'aborted');
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/runs/${runId}`);
    const version = page.getByRole('link', { name: `tally_layout@${hash.slice(0, 12)}` });
    await expect(version).toBeVisible();
    // the lines it is drawn on: the tops of its inline boxes (a box per line, per text and per element inside it)
    expect(await version.evaluate((a) => new Set([...a.getClientRects()].map((r) => Math.round(r.top))).size), `${width} px`).toBe(1);
    await shotOf(page.locator('section', { hasText: 'Run report' }).first(), `test-results/screens/report-version-${width}.png`);
  }
});
