// A skill whose `entry` names no phase draws every phase greyed, unreachable: before, only the
// Problems list said why, and the diagram looked as if every phase had gone wrong. The diagram says
// it now, on the diagram, and the note goes once `entry` names a phase.
import { expect, test } from '@playwright/test';

const SKILL = (name: string, entry: string) => `---\nname: ${name}\nentry: ${entry}\ngraph:\n  draft: [review]\n  review: []\noutput_schema: { type: object }\n---\nBody.\n\n## draft\nDraft it.\n\n## review\nReview it.\n`;
const SAID = '`entry: drafts` names no phase, so no phase is reached: every phase is greyed until `entry` names one of them (see Problems).';

test('diagram: an entry naming no phase is said on the diagram, and the note goes once it names one', async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'entry_amiss' } })).status()).toBe(201);
  expect((await request.post('/api/skills/entry_amiss/versions', { data: { files: { 'skill.md': SKILL('entry_amiss', 'drafts') } } })).status()).toBe(201);
  await page.goto('/skills/entry_amiss');
  const diagram = page.getByRole('region', { name: 'Skill diagram' });
  await expect(diagram.getByRole('group', { name: 'phase draft invalid', exact: true }).or(diagram.getByRole('group', { name: 'phase draft', exact: true }))).toBeVisible({ timeout: 30_000 });
  const note = diagram.getByRole('status').filter({ hasText: 'names no phase' });
  await expect(note).toHaveText(SAID);
  await expect(note).toBeInViewport();
  await page.screenshot({ path: 'test-results/screens/diagram-entry-amiss.png' });
  // `drafts` → `draft`: the entry is drawn, the note gone
  const editor = page.getByRole('region', { name: 'skill.md editor' });
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await expect(diagram.getByRole('group', { name: 'phase draft (entry)', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(diagram).not.toContainText('names no phase');
});
