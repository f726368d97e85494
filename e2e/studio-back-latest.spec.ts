// Back from the run a Run opened: the studio showed the page as the browser first had it — the
// version before the Run saved, as if it were the latest, without the text just typed and saved
// (the draft was gone with the save). Now it opens on the latest version, the typed text there.
import { expect, test, type Page } from '@playwright/test';
import { editorModelReady } from './monaco';

test.describe.configure({ timeout: 180_000 });

const skillText = (page: Page) =>
  page.evaluate(() => (window as unknown as { monaco: { editor: { getModels(): { uri: { path: string }; getValue(): string }[] } } }).monaco.editor.getModels().find((m) => m.uri.path.endsWith('/skill.md'))!.getValue());

test('Back from a run started in the studio opens the version the run saved, not the one before it', async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'back_latest' } })).status()).toBe(201);
  await page.goto('/skills/back_latest');
  await editorModelReady(page, 'skill.md', 60_000);
  await page.getByRole('region', { name: 'skill.md editor' }).locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('Be kind.');
  await page.keyboard.press('Control+Enter');
  await page.waitForURL('**/runs/**', { timeout: 60_000 });
  const latest = ((await (await request.get('/api/skills/back_latest')).json()) as { latestVersion: string }).latestVersion;
  await page.goBack();
  await expect(page.getByText(latest.slice(0, 8), { exact: true })).toBeVisible({ timeout: 30_000 });
  await editorModelReady(page, 'skill.md', 60_000);
  await expect.poll(() => skillText(page)).toContain('Be kind.');
  await expect(page.getByText('unsaved changes')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/studio-back-latest.png' });
});
