// A frontmatter key that YAML reads as null — `: value` (a key left out), `~: x`, `null: x` — made
// monaco-yaml's worker throw on every completion and hover of the file (its "Property {0} is not
// allowed." message, formatted with a null key, throws in Object.keys): an error in the console at each
// Ctrl+Space, and no suggestion anywhere in the frontmatter until the line was fixed. The editor's copy
// of the schema now gives that message itself (components/editor/yaml-schema.ts), so completion and hover
// keep answering while such a line is there, and nothing reaches the console.
import { expect, test, type Page } from '@playwright/test';
import { editorModelReady, hoverUntilShown } from './monaco';

test.describe.configure({ timeout: 180_000 });

type Api = {
  editor: {
    getModels(): { uri: { path: string }; getValue(): string; setValue(v: string): void }[];
    getEditors(): { setPosition(p: { lineNumber: number; column: number }): void; focus(): void; getModel(): { getLineMaxColumn(n: number): number } }[];
  };
};

/** the skill.md model holds `text`, the cursor at the end of line `line`, the editor focused */
async function setTextAt(page: Page, text: string, line: number) {
  await page.evaluate(
    ([t, l]) => {
      const api = (window as unknown as { monaco: Api }).monaco;
      api.editor.getModels().find((m) => m.uri.path.endsWith('/skill.md'))!.setValue(t as string);
      const ed = api.editor.getEditors()[0];
      ed.setPosition({ lineNumber: l as number, column: ed.getModel().getLineMaxColumn(l as number) });
      ed.focus();
    },
    [text, line] as const,
  );
}

test('completion and hover keep answering while a frontmatter key is empty or null, and no error reaches the page', async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'empty_key', from: 'summarize' } })).status()).toBe(201);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/skills/empty_key');
  const editor = page.getByRole('region', { name: 'skill.md editor' });
  await expect(editor.locator('.view-line').first()).toBeVisible({ timeout: 30_000 });
  await editorModelReady(page, 'skill.md', 60_000);
  const original = await page.evaluate(() => (window as unknown as { monaco: Api }).monaco.editor.getModels().find((m) => m.uri.path.endsWith('/skill.md'))!.getValue());
  const suggest = page.locator('.suggest-widget');
  // the worker has started: completion answers on the skill as it is
  await expect(async () => {
    await setTextAt(page, original, 2);
    await page.keyboard.press('Enter');
    await page.keyboard.type('cap');
    await page.keyboard.press('Control+Space');
    await expect(suggest).toContainText('capabilities', { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await page.keyboard.press('Escape');

  for (const bad of [': value', '~: x', 'null: x']) {
    // typed as a user would, below `name:`; then a key begun on the next line
    await setTextAt(page, original, 2);
    await page.keyboard.press('Enter');
    await page.keyboard.type(bad);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page.keyboard.type('cap');
    await page.keyboard.press('Control+Space');
    await expect(suggest, `completion with \`${bad}\` in the frontmatter`).toContainText('capabilities');
    await page.keyboard.press('Escape');
    // hover on `entry` still describes it
    const hover = page.locator('.monaco-hover').filter({ hasText: 'skill.md reference' });
    await hoverUntilShown(page, editor.locator('.view-lines span span').filter({ hasText: /^entry$/ }).first(), hover);
    await expect(hover, `hover with \`${bad}\` in the frontmatter`).toContainText('The phase the run starts in');
    await page.mouse.move(0, 0);
  }
  // the line fixed: completion as before
  await setTextAt(page, original, 2);
  await page.keyboard.press('Enter');
  await page.keyboard.type('cap');
  await page.keyboard.press('Control+Space');
  await expect(suggest).toContainText('capabilities');
  await page.keyboard.press('Escape');
  expect(errors).toEqual([]);
});
