// The studio diagram's "POSTPROCESSOR → CALLER CONTRACT" box is drawn around a postprocessor's steps
// and the contract they lead to. A skill with no postprocessor step drew it around the contract card
// alone, titled for a chain it does not have: that card is named "caller contract" itself, and is
// drawn without the box.
import { expect, test } from '@playwright/test';
import { atEachWidth } from './widths';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

const LANE_TEXT = /postprocessor → caller contract/i;

test('no postprocessor: the caller contract is drawn without a postprocessor box', async ({ page }) => {
  await atEachWidth(page, '/skills/research_brief', async (width) => {
    const diagram = page.locator('.react-flow');
    await expect(diagram.getByRole('group', { name: 'caller contract', exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(diagram.getByRole('img', { name: 'postprocessor lane' })).toHaveCount(0);
    await expect(diagram.getByText(LANE_TEXT)).toHaveCount(0);
    await expect(diagram.locator('.react-flow__node-lane')).toHaveCount(0);
    await shotOf(diagram, `test-results/screens/diagram-no-postprocessor-${width}.png`);
  });
});

test('a postprocessor: its steps and the caller contract are drawn in the box, as before', async ({ page }) => {
  await atEachWidth(page, '/skills/summarize', async (width) => {
    const diagram = page.locator('.react-flow');
    await expect(diagram.getByRole('group', { name: 'caller contract', exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(diagram.getByRole('img', { name: 'postprocessor lane' })).toHaveCount(1);
    await expect(diagram.getByText(LANE_TEXT)).toBeVisible();
    await shotOf(diagram, `test-results/screens/diagram-postprocessor-${width}.png`);
  });
});
