// A skill whose saved skill.md does not parse (an unclosed `[`) opens in the studio with nothing drawn
// and no last good diagram: the diagram pane says the frontmatter does not parse, above its usual
// words on how to start one. Before, it said only "The diagram appears as you write. Give skill.md a
// frontmatter with an entry and a graph…" — to a skill whose frontmatter has both. Fixed, the diagram
// is drawn and the sentence goes.
import { expect, test } from '@playwright/test';

const UNCLOSED = (name: string) => `---\nname: ${name}\nentry: a\ngraph:\n  a: [b\n  b: []\noutput_schema: { type: object }\n---\nBody.\n`;
const SAID = 'The frontmatter does not parse right now: the diagram is drawn once it does (see Problems).';

test('diagram: a skill.md that does not parse, with nothing drawn yet, is said not to parse', async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'unreadable_empty' } })).status()).toBe(201);
  expect((await request.post('/api/skills/unreadable_empty/versions', { data: { files: { 'skill.md': UNCLOSED('unreadable_empty') } } })).status()).toBe(201);
  await page.goto('/skills/unreadable_empty');
  const diagram = page.getByRole('region', { name: 'Skill diagram' });
  await expect(diagram).toContainText(SAID);
  await expect(diagram).toContainText('The diagram appears as you write.');
  await page.screenshot({ path: 'test-results/screens/diagram-unreadable-empty.png' });
  // the `[` closed: drawn, and the sentence gone
  const editor = page.getByRole('region', { name: 'skill.md editor' });
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.type(']');
  await expect(diagram.getByRole('group', { name: 'phase a (entry)', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(diagram).not.toContainText(SAID);
});
