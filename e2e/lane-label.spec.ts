// The studio diagram's edge into the postprocessor chain ran through its lane's label
// (POSTPROCESSOR → CALLER CONTRACT, drawn at the lane's top, where the edge comes in): the label is at
// the lane's foot now, where nothing is drawn through it.
import { expect, test } from '@playwright/test';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

test("no edge of the diagram runs through the postprocessor lane's label", async ({ page }) => {
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/skills/summarize');
    const diagram = page.locator('.react-flow');
    await expect(diagram.getByRole('group', { name: 'caller contract' })).toBeVisible({ timeout: 60_000 });
    const label = diagram.getByRole('img', { name: 'postprocessor lane' }).locator('span');
    const box = (await label.boundingBox())!;
    const edges = await diagram.locator('.react-flow__edge-path').evaluateAll((paths) => paths.map((p) => p.getBoundingClientRect().toJSON() as { left: number; right: number; top: number; bottom: number }));
    expect(edges.length).toBeGreaterThan(0);
    const through = edges.filter((e) => e.left < box.x + box.width && e.right > box.x && e.top < box.y + box.height && e.bottom > box.y);
    expect(through, `${width} px: edges over the label ${JSON.stringify(box)}`).toEqual([]);
    await shotOf(diagram, `test-results/screens/lane-label-${width}.png`);
  }
});
