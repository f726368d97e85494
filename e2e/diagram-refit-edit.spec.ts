// The studio's diagram chooses its view again when the drawn nodes change (a phase or a step added or
// removed), while the view is still the one it chose: a bigger skill pasted over the blank template
// shows every phase. Before, the template's view was kept, and the entry phase and the next were off the
// top. A view the user zoomed or panned is theirs: an edit leaves it as it is.
import { expect, test, type Page } from '@playwright/test';
import { least, settled, transform } from './diagram-view';
import { shotOf } from './shots';

test.describe.configure({ timeout: 120_000 });

const BIGGER = (name: string) => `---
name: ${name}
description: Gathers, drafts and checks
entry: gather
graph:
  gather: [draft]
  draft: [check]
  check: []
output_schema:
  type: object
  properties:
    answer: { type: string }
postprocessor:
  output_schema: { type: object }
  steps:
    - { type: validate, schema: { type: object } }
    - { type: validate, schema: { type: object } }
    - { type: validate, schema: { type: object } }
---
Body.

## gather
Gather.

## draft
Draft.

## check
Check.
`;

const PHASES = '.react-flow__node-phase';
const diagramOf = (page: Page) => page.getByRole('region', { name: 'Skill diagram' });

async function blankSkill(page: Page, name: string) {
  expect((await page.request.post('/api/skills', { data: { name } })).status()).toBe(201);
  await page.goto(`/skills/${name}`);
  await expect(diagramOf(page).getByRole('group', { name: 'phase answer (entry)', exact: true })).toBeVisible({ timeout: 60_000 });
  await settled(page);
}

/** the editor's text replaced at once, as a paste does */
async function paste(page: Page, text: string) {
  await page.getByRole('region', { name: 'skill.md editor' }).locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
  // every new card drawn and measured (React Flow hides a card until it has measured it)
  for (const name of ['phase gather (entry)', 'phase draft', 'phase check', 'step 2 validate']) {
    await expect(diagramOf(page).getByRole('group', { name, exact: true })).toBeVisible();
  }
}

test('diagram: a bigger skill pasted over the blank template shows every phase', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await blankSkill(page, 'refit_paste');
  await paste(page, BIGGER('refit_paste'));
  await expect.poll(() => least(page, PHASES), { message: 'every phase card inside the diagram pane' }).toBeGreaterThanOrEqual(0);
  await settled(page);
  expect(await least(page, PHASES)).toBeGreaterThanOrEqual(0);
  await shotOf(diagramOf(page), 'test-results/screens/diagram-refit-paste.png');

  // an edit inside a phase leaves the nodes as they are: the view holds still
  const fitted = await settled(page);
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('More.\n');
  expect(await settled(page)).toBe(fitted);
});

test('diagram: a view the user zoomed is kept when a bigger skill is pasted', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await blankSkill(page, 'refit_paste_zoomed');
  const fitted = await transform(page);
  await diagramOf(page).getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(() => transform(page)).not.toBe(fitted);
  const zoomed = await settled(page);
  await paste(page, BIGGER('refit_paste_zoomed'));
  expect(await settled(page)).toBe(zoomed);
  await shotOf(diagramOf(page), 'test-results/screens/diagram-refit-paste-zoomed.png');
});
