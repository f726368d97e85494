// New skill and Rename say what is wrong with a name in the dialog's words, not the API's
// ("The request body is not as this route expects: …"), and nothing is created or renamed.
import { expect, test } from '@playwright/test';

test('a name that cannot name a skill is said plainly in New skill and Rename', async ({ page, request }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'New skill' }).click();
  const dialog = page.getByRole('dialog', { name: 'New skill' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Bad Name!');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByRole('alert')).toContainText('“Bad Name!” cannot name a skill');
  await expect(dialog.getByRole('alert')).not.toContainText('request body');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: /^Rename/ }).first().click();
  const rename = page.getByRole('dialog', { name: /^Rename / });
  await rename.getByRole('textbox').fill('No-Dashes');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(rename.getByRole('alert')).toContainText('“No-Dashes” cannot name a skill');
  const names = ((await (await request.get('/api/skills')).json()) as { skills: { name: string }[] }).skills.map((s) => s.name);
  // nothing made of either name (specs running beside this one have their own skills: badge_title is not one of these)
  expect(names.filter((n) => /^(bad[ _-]?name!?|no[ _-]?dashes)$/i.test(n))).toEqual([]);
});
