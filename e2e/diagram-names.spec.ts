// Every node the studio's diagram draws has a role and an accessible name, the postprocessor's lane
// around the chain included (React Flow draws a node with no name unless it is given one), and so has
// the diagram's own `application` wrapper; its background grid is decoration, hidden from assistive technology.
import { expect, test } from '@playwright/test';

test('every drawn node of the diagram has a role and a name', async ({ page }) => {
  await page.goto('/skills/blog_writer');
  const diagram = page.locator('.react-flow');
  await expect(diagram.getByRole('group', { name: 'caller contract' })).toBeVisible({ timeout: 60_000 });
  await expect(diagram.getByRole('img', { name: 'postprocessor lane' })).toHaveCount(1);
  // React Flow's wrapper is an application: it has a name too
  await expect(page.getByRole('application', { name: 'Diagram canvas' })).toHaveCount(1);
  // and no new name holds a name the studio's contract gives (a label matches by part: it would find two)
  for (const name of ['Diagram canvas', 'Skill diagram', 'postprocessor lane', 'caller contract', 'phase draft (entry)']) await expect(page.getByLabel(name)).toHaveCount(1);
  // the background grid is decoration: hidden from assistive technology, never an image with no name
  const background = diagram.locator('svg.react-flow__background');
  await expect(background).toHaveCount(1);
  expect(await background.evaluate((svg) => svg.closest('[aria-hidden="true"]') !== null || !!svg.getAttribute('aria-label'))).toBe(true);
  // not among the images assistive technology is given (an svg is one, by default)
  await expect(diagram.getByRole('img').and(background)).toHaveCount(0);
  await expect(diagram.getByRole('img', { includeHidden: true }).and(background)).toHaveCount(1);
  const unnamed = await page.locator('.react-flow__node').evaluateAll((nodes) =>
    nodes.filter((n) => !n.getAttribute('role') || !(n.getAttribute('aria-label') ?? '').trim()).map((n) => n.getAttribute('data-id')),
  );
  expect(unnamed).toEqual([]);
});
