// A large skill (the editor benchmark's: 100 phases, 50 steps) opens in the studio at its entry, at a
// zoom a person reads (card text of 12 px drawn at 9.6 px, not 6.6 px), with the overview (minimap)
// beside it in the 1440 × 900 window's diagram pane; Fit shows all of it. Before, the first view was at
// 0.55, every card's text too small to read, the minimap gave way in that pane (440 px high), and Fit
// stopped at a zoom of 0.02, about half of the cards in view, the entry and the contract cut off.
import { expect, test, type Page } from '@playwright/test';
import { least, settled } from './diagram-view';
import { savedBenchSkill } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

const diagramOf = (page: Page) => page.getByRole('region', { name: 'Skill diagram' });
const zoomOf = (transform: string) => Number(/scale\(([\d.]+)\)/.exec(transform)?.[1]);

test('diagram: a large skill opens at its entry at a readable zoom, with its overview', async ({ page, request }) => {
  await savedBenchSkill(request, 'large_opening');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/skills/large_opening');
  const diagram = diagramOf(page);
  const entry = diagram.getByRole('group', { name: 'phase p000 (entry)', exact: true });
  await expect(entry).toBeVisible({ timeout: 60_000 });
  const opened = zoomOf(await settled(page));
  expect(opened, 'the opening zoom').toBeGreaterThanOrEqual(0.75);
  expect(await least(page, `.react-flow__node[data-id="${await entry.getAttribute('data-id')}"]`), 'the entry card whole in the view').toBeGreaterThanOrEqual(0);
  const overview = diagram.getByRole('img', { name: 'Diagram overview' });
  await expect(overview).toBeVisible();
  // the overview keeps to its corner, off the entry card
  const map = (await overview.boundingBox())!;
  const card = (await entry.boundingBox())!;
  expect(card.x + card.width <= map.x || card.y + card.height <= map.y, 'the entry card clear of the overview').toBe(true);
  await shotOf(diagram, 'test-results/screens/diagram-large-opening.png');
});

test('diagram: Fit shows every card of a large skill, its entry and its contract', async ({ page, request }) => {
  await savedBenchSkill(request, 'large_fit');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/skills/large_fit');
  const diagram = diagramOf(page);
  const entry = diagram.getByRole('group', { name: 'phase p000 (entry)', exact: true });
  await expect(entry).toBeVisible({ timeout: 60_000 });
  const opened = zoomOf(await settled(page));
  await diagram.getByRole('button', { name: 'Fit', exact: true }).click();
  expect(zoomOf(await settled(page))).toBeLessThan(opened);
  // every card inside the view (drawn a few px tall at this zoom)
  expect(await least(page), 'every card inside the view').toBeGreaterThanOrEqual(0);
  await shotOf(diagram, 'test-results/screens/diagram-large-fitted.png');
});
