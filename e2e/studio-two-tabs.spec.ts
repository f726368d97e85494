// Nothing typed is lost to a second tab: both tabs open on one skill, each types, the first is
// closed and the second types on. Before, the second tab's draft took the skill's one draft and the
// first tab's unsaved text was gone. Now it is kept aside, said when the skill opens again, and
// comes back once the changes shown are saved.
import { expect, test, type Page } from '@playwright/test';
import { editorModelReady } from './monaco';

test.describe.configure({ timeout: 180_000 });

const KEY = 'stagecraft:draft:two_tabs';
const draftHas = (page: Page, text: string) => expect.poll(() => page.evaluate(([k, t]) => (localStorage.getItem(k) ?? '').includes(t), [KEY, text])).toBe(true);
const skillText = (page: Page) =>
  page.evaluate(() => (window as unknown as { monaco: { editor: { getModels(): { uri: { path: string }; getValue(): string }[] } } }).monaco.editor.getModels().find((m) => m.uri.path.endsWith('/skill.md'))!.getValue());

async function open(page: Page) {
  await page.goto('/skills/two_tabs');
  await editorModelReady(page, 'skill.md', 60_000);
}

async function typeAtEnd(page: Page, text: string) {
  await page.getByRole('region', { name: 'skill.md editor' }).locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

test('two tabs typing into one skill: the tab closed first keeps its unsaved text', async ({ context, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'two_tabs' } })).status()).toBe(201);
  const one = await context.newPage();
  await open(one);
  const two = await context.newPage();
  await open(two);
  await typeAtEnd(one, '\nTyped in tab one.');
  await draftHas(one, 'Typed in tab one.');
  await typeAtEnd(two, '\nTyped in tab two.');
  await draftHas(two, 'Typed in tab two.');
  await one.close({ runBeforeUnload: true });
  await typeAtEnd(two, ' And more.');
  await draftHas(two, 'And more.');

  const three = await context.newPage();
  await open(three);
  const note = three.getByRole('status').filter({ hasText: /are back/ });
  await expect(note).toContainText("Another tab's unsaved changes from");
  await expect(note).toContainText('are kept too: they are offered here when the skill next opens, once these are saved or discarded.');
  expect(await skillText(three)).toContain('Typed in tab two. And more.');
  await three.screenshot({ path: 'test-results/screens/studio-two-tabs-note.png' });
  await three.getByRole('button', { name: 'Save', exact: true }).click();
  await draftHas(three, 'Typed in tab one.');
  await three.reload();
  await editorModelReady(three, 'skill.md', 60_000);
  await expect(three.getByRole('status').filter({ hasText: /are back/ })).toContainText('made on an older version than the latest');
  expect(await skillText(three)).toContain('Typed in tab one.');
  await three.screenshot({ path: 'test-results/screens/studio-two-tabs-back.png' });
});
