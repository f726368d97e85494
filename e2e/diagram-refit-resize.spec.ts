// The studio's diagram chooses its view again when its pane changes size, while the view is still the
// one it chose: after the window narrows from 1400 to 800 px a fitted skill is fitted to the narrow pane,
// and a large one (first shown from its entry, at a readable zoom) shows its entry card whole. Before,
// the view kept the 1400 px one and the cards were cut off on the right until Fit was pressed. A view
// the user moved (zoomed or panned) is theirs: a resize leaves it as it is.
import { expect, test } from '@playwright/test';
import { least, overview, settled, transform } from './diagram-view';
import { savedSkill } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 120_000 });

test('diagram: a fitted view is fitted again when the window narrows and widens; a view the user zoomed is kept', async ({ page, request }) => {
  await savedSkill(request, 'tally', 'tally_refit');
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/skills/tally_refit');
  const diagram = page.locator('.react-flow');
  await expect(diagram.getByRole('group', { name: 'caller contract' })).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => least(page), { message: 'every card inside the view at 1400 px' }).toBeGreaterThanOrEqual(0);
  const wide = await transform(page);

  await page.setViewportSize({ width: 800, height: 900 });
  await expect.poll(() => least(page), { message: 'every card inside the view at 800 px' }).toBeGreaterThanOrEqual(0);
  expect(await transform(page)).not.toBe(wide);
  await shotOf(diagram, 'test-results/screens/diagram-refit-800.png');
  // and back: fitted to the wider pane again
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect.poll(() => transform(page)).toBe(wide);

  // the user zooms in: the view is theirs, and a resize keeps it
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(() => transform(page)).not.toBe(wide);
  const zoomed = await settled(page);
  const at1400 = await overview(page);
  await page.setViewportSize({ width: 800, height: 900 });
  // React Flow has measured the narrower pane (a refit would be drawn in the same render), and the view held still
  await expect.poll(() => overview(page), { message: 'the overview draws the 800 px pane' }).not.toBe(at1400);
  expect(await settled(page)).toBe(zoomed);
  await shotOf(diagram, 'test-results/screens/diagram-refit-kept-800.png');

  // Fit is asked for again after the user's zoom: a resize fits again from then on
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await expect.poll(() => transform(page)).not.toBe(zoomed);
  await settled(page);
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect.poll(() => transform(page)).toBe(wide);
});

test('diagram: a large skill first shown from its entry shows the entry card whole after the window narrows', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/skills/blog_writer');
  const diagram = page.locator('.react-flow');
  const entry = diagram.getByRole('group', { name: /\(entry\)$/ });
  await expect(entry).toBeVisible({ timeout: 60_000 });
  await settled(page);
  const entrySelector = `.react-flow__node[data-id="${await entry.getAttribute('data-id')}"]`;
  await expect.poll(() => least(page, entrySelector), { message: 'the entry card inside the view at 1400 px' }).toBeGreaterThanOrEqual(0);
  await page.setViewportSize({ width: 800, height: 900 });
  await expect.poll(() => least(page, entrySelector), { message: 'the entry card inside the view at 800 px' }).toBeGreaterThanOrEqual(0);
  await shotOf(diagram, 'test-results/screens/diagram-reframe-800.png');
});
