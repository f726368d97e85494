// The blank template's model.yaml scripts phase `answer`: rename the phase in skill.md and Problems
// says valid (it is skill.md's), while a run with that script fails at its first model turn. The
// Run panel says so beside the model picked, and stops saying it once the script has the phase.
import { expect, test } from '@playwright/test';
import { editorModelReady, replaceInModel } from './monaco';

test.describe.configure({ timeout: 180_000 });

test('a model script with no turns for the entry phase is said in the Run panel, not in Problems', async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'script_note', from: 'research_brief' } })).status()).toBe(201);
  await page.goto('/skills/script_note');
  await editorModelReady(page, 'skill.md', 60_000);
  const note = page.getByTestId('script-note');
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('scripted:model.yaml');
  await expect(note).toHaveCount(0);
  // the entry phase renamed in skill.md alone (its graph key, its section, `entry:`)
  await replaceInModel(page, 'skill.md', [[/\bgather\b/g, 'collect']]);
  await expect(note).toHaveText(
    'model.yaml has no turns for the entry phase `collect` (only for `gather`, `write`): a run with it fails at its first model turn. Add turns with `phase: collect` to model.yaml, or pick another model.',
  );
  await expect(page.getByRole('list', { name: 'Problems' }).getByRole('listitem')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/studio-script-note.png' });
  // model.yaml made to follow: nothing to say
  await page.getByRole('tab', { name: 'model.yaml' }).click();
  await editorModelReady(page, 'model.yaml');
  await replaceInModel(page, 'model.yaml', [[/\bgather\b/g, 'collect']]);
  await expect(note).toHaveCount(0);
});
