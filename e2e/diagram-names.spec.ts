// Every node the studio's diagram draws has a role and an accessible name, the postprocessor's lane
// around the chain included (React Flow draws a node with no name unless it is given one), and so has
// the diagram's own `application` wrapper; its background grid is decoration, hidden from assistive technology.
import { expect, test } from '@playwright/test';
import { shotOf } from './shots';

test('every drawn node of the diagram has a role and a name', async ({ page }) => {
  await page.goto('/skills/blog_writer');
  const diagram = page.locator('.react-flow');
  await expect(diagram.getByRole('group', { name: 'caller contract' })).toBeVisible({ timeout: 60_000 });
  await expect(diagram.getByRole('img', { name: 'postprocessor lane' })).toHaveCount(1);
  // React Flow's wrapper is an application: it has a name too
  await expect(page.getByRole('application', { name: 'Diagram canvas' })).toHaveCount(1);
  // and no new name holds a name the studio's contract gives (a label matches by part: it would find two),
  // but for the edges, which name their ends as their cards are named
  for (const name of ['Diagram canvas', 'Skill diagram', 'postprocessor lane', 'caller contract', 'phase draft (entry)']) await expect(page.getByLabel(name).and(page.locator(':not(.react-flow__edge)'))).toHaveCount(1);
  // (the edge into the contract names it as its card is named: "from step 1 to caller contract")
  await expect(diagram.locator('.react-flow__edge').and(page.getByLabel(/ to caller contract$/))).toHaveCount(1);
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

// React Flow draws each edge in an <svg> of its own that it gives no name: one unnamed image per edge
// to assistive technology. The edge inside it is named "from A to B"; the svg around it is not offered.
test('every edge is named from its source to its target, and no edge wrapper is an image without a name', async ({ page }) => {
  await page.goto('/skills/blog_writer');
  const diagram = page.locator('.react-flow');
  await expect(diagram.getByRole('group', { name: 'caller contract' })).toBeVisible({ timeout: 60_000 });
  const edges = diagram.locator('.react-flow__edge');
  const count = await edges.count();
  expect(count, 'the diagram draws edges').toBeGreaterThan(2);
  // each edge: an image named "from <source> to <target>"
  await expect(diagram.getByRole('img', { name: /^from .+ to .+$/ })).toHaveCount(count);
  for (const edge of await edges.all()) await expect(edge).toHaveAccessibleName(/^from \S.* to \S.*$/);
  // the per-edge svg wrappers are no images of their own
  const wrappers = diagram.locator('.react-flow__edges > svg');
  await expect(wrappers).toHaveCount(count + 1); // and the arrowheads' definitions, hidden
  await expect(diagram.getByRole('img').and(wrappers)).toHaveCount(0);
  // what a screen reader is given of the edges: every image in it has a name
  const tree = await diagram.locator('.react-flow__edges').ariaSnapshot();
  expect(tree, tree).not.toMatch(/- img\s*$/m);
  expect(tree).toContain('img "from phase');
  // the node names are the studio's contract, and stay as they were
  for (const name of ['Diagram canvas', 'postprocessor lane', 'caller contract', 'phase draft (entry)']) await expect(page.getByLabel(name, { exact: true })).toHaveCount(1);
  await shotOf(diagram, 'test-results/screens/diagram-edge-names.png');
});
