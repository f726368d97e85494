// The run timeline's zoom controls read as one control (Zoom out, the level as a percentage, Zoom in,
// Fit) and sit on the line of the timeline's other controls at 1024 and 1440 px. Before, at 1024 px
// they wrapped onto a line of their own, and the level read "fit" beside the Fit button: "− fit + Fit".
import { expect, test } from '@playwright/test';
import { failedTallyRun } from './skill-runs';
import { atEachWidth } from './widths';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

test('timeline: zoom controls on the line of the other controls, the level a percentage', async ({ page, request }) => {
  const runId = await failedTallyRun(request, 'tally_zoom');
  await atEachWidth(page, `/runs/${runId}`, async (width) => {
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const zoom = timeline.getByRole('group', { name: 'Zoom' });
    const level = zoom.getByLabel('Zoom level');
    await expect(level).toHaveText('100%');
    // all four measured in one frame, and again until the page settles: a line arriving above (the
    // newer-version note) moves them all between two separate measurements
    const offLine = () =>
      timeline.evaluate((root) => {
        const mid = (el: Element | null | undefined) => (el ? el.getBoundingClientRect().y + el.getBoundingClientRect().height / 2 : NaN);
        const next = mid([...root.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Next failure')));
        const zoomButtons = [...(root.querySelector('[role="group"][aria-label="Zoom"]')?.querySelectorAll('button') ?? [])];
        return zoomButtons.length === 3 ? Math.max(...zoomButtons.map((b) => Math.abs(mid(b) - next))) : NaN;
      });
    await expect.poll(offLine, { message: `Zoom out, Zoom in and Fit on the line of Next failure at ${width} px` }).toBeLessThan(2);
    await expect(zoom).not.toContainText(/\bfit\b/);
    await timeline.getByRole('button', { name: 'Zoom in' }).click();
    await expect(level).toHaveText('125%');
    await timeline.getByRole('button', { name: 'Fit' }).click();
    await expect(level).toHaveText('100%');
    await shotOf(timeline, `test-results/screens/timeline-zoom-${width}.png`);
  });
});
