// The note under the editor describes the key under the cursor and links its reference. A long
// description (`output_schema`'s, five lines at 1280 px) ran past the note's two lines: the text was
// cut through the middle of a line and the "reference" link was out of sight, yet took focus (Tab
// scrolled the note to it, hiding the key's name). Now the text is cut to two whole lines with an
// ellipsis (the whole of it on hover), and the link is always in view.
import { expect, test } from '@playwright/test';
import { editorModelReady } from './monaco';

test.describe.configure({ timeout: 180_000 });

test('a long key description keeps its reference link in view and cuts no line in half', async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'key_info_link' } })).status()).toBe(201);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto('/skills/key_info_link');
  await editorModelReady(page, 'skill.md', 60_000);
  await page.getByRole('region', { name: 'skill.md editor' }).locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  const note = page.getByRole('note', { name: 'The key under the cursor' });
  await expect(note).toContainText('output_schema — The LLM finish contract of the skill');
  const link = note.getByRole('link', { name: 'reference' });
  await expect(link).toBeVisible();
  const [n, l] = [await note.boundingBox(), await link.boundingBox()];
  expect(l!.y).toBeGreaterThanOrEqual(n!.y);
  expect(l!.y + l!.height).toBeLessThanOrEqual(n!.y + n!.height + 0.5);
  // nothing hidden below the note's box (a line cut through)
  expect(await note.evaluate((e) => e.scrollHeight - e.clientHeight)).toBeLessThanOrEqual(1);
  await page.screenshot({ path: 'test-results/screens/studio-key-info-link.png' });
});
