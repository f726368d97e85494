// The Details panel's actions on a failed step (Rerun from here, Fork from here, Open in studio) are
// one row of buttons of one size, at 1024 and 1440 px. Before, Open in studio was a small button
// beside two full-size ones, so the row's heights did not match.
import { expect, test } from '@playwright/test';
import { failedTallyRun } from './skill-runs';
import { atEachWidth } from './widths';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

test('Details: the failed step’s actions are buttons of one height, rerun and fork side by side', async ({ page, request }) => {
  const runId = await failedTallyRun(request, 'tally_row');
  await atEachWidth(page, `/runs/${runId}`, async (width) => {
    const details = page.getByRole('region', { name: 'Details' });
    const rerun = details.getByRole('button', { name: 'Rerun from here' });
    await expect(rerun).toBeVisible();
    await expect(details.getByRole('button', { name: 'Fork from here' })).toBeVisible();
    await expect(details.getByRole('link', { name: 'Open in studio' })).toBeVisible();
    // the three boxes read in one go: the page may still be scrolling the timeline's selection into view,
    // and boxes read one call apart would be measured at different scroll positions
    const [r, f, s] = await details.evaluate((el) => {
      const named = (sel: string, text: string) => [...el.querySelectorAll(sel)].find((e) => e.textContent?.trim() === text)!;
      return [named('button', 'Rerun from here'), named('button', 'Fork from here'), named('a', 'Open in studio')].map((e) => {
        const b = e.getBoundingClientRect();
        return { y: b.y, height: b.height };
      });
    });
    expect(Math.abs(s.height - r.height), `Open in studio (${s.height} px) as tall as Rerun from here (${r.height} px) at ${width} px`).toBeLessThan(1);
    expect(Math.abs(f.height - r.height), `Fork from here as tall as Rerun from here at ${width} px`).toBeLessThan(1);
    expect(Math.abs(f.y - r.y), `rerun and fork on one line at ${width} px`).toBeLessThan(1);
    // the studio link is on the row's line or wraps under it, never half a line off
    expect([0, r.height + 8].some((dy) => Math.abs(s.y - r.y - dy) < 1.5), `Open in studio at ${s.y - r.y} px from the row at ${width} px`).toBe(true);
    await shotOf(details, `test-results/screens/details-actions-${width}.png`);
  });
});
