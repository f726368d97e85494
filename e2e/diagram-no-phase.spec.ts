// A skill.md with no phase yet (no `graph`, no `entry`): the diagram drew the caller contract alone, as
// if that were the whole skill, and only the Problems list said why. It says so on the diagram now, and
// the note goes once a phase is declared.
import { expect, test } from '@playwright/test';

const NO_PHASE = '---\nname: no_phase\ndescription: nothing yet\n---\nBody.\n';
const SAID = 'skill.md declares no phase yet, so only the caller contract is drawn: add `graph` and `entry` (see Problems).';

test('diagram: a skill.md with no phase says so on the diagram, and the note goes once it has one', async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'no_phase' } })).status()).toBe(201);
  expect((await request.post('/api/skills/no_phase/versions', { data: { files: { 'skill.md': NO_PHASE } } })).status()).toBe(201);
  await page.goto('/skills/no_phase');
  const diagram = page.getByRole('region', { name: 'Skill diagram' });
  await expect(diagram.getByRole('group', { name: /caller contract/ })).toBeVisible({ timeout: 30_000 });
  const note = diagram.getByRole('status').filter({ hasText: 'declares no phase' });
  await expect(note).toHaveText(SAID);
  await expect(note).toBeInViewport();
  await page.screenshot({ path: 'test-results/screens/diagram-no-phase.png' });
  // a phase declared: drawn, the note gone
  const withPhase = NO_PHASE.replace('description: nothing yet\n', 'description: nothing yet\nentry: draft\ngraph:\n  draft: []\n').replace('Body.\n', 'Body.\n\n## draft\nDraft it.\n');
  expect((await request.post('/api/skills/no_phase/versions', { data: { files: { 'skill.md': withPhase } } })).status()).toBe(201);
  await page.goto('/skills/no_phase');
  await expect(diagram.getByRole('group', { name: /^phase draft/ })).toBeVisible({ timeout: 30_000 });
  await expect(diagram.getByRole('status').filter({ hasText: 'declares no phase' })).toHaveCount(0);
});
