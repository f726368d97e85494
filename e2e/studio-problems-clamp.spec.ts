// The Problems panel holds a fifth of the editor's height: a finding that lists names (the known
// effects, the phases) took four lines at 800 px and pushed the others out of it. Each finding is
// two lines at most now, the whole of it on hover or focus (and always in the editor's marker).
import { expect, test } from '@playwright/test';
import { editorModelReady, replaceInModel } from './monaco';

test.describe.configure({ timeout: 180_000 });

test('a long finding is two lines in Problems, and whole when focused', async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'problems_clamp', from: 'research_brief' } })).status()).toBe(201);
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto('/skills/problems_clamp');
  await editorModelReady(page, 'skill.md', 60_000);
  await replaceInModel(page, 'skill.md', [
    [/^entry: .*$/m, 'entry: nowhere'],
    [/^ {2}effects: \[/m, '  effects: [made_up_effect_one, made_up_effect_two, '],
  ]);
  const problems = page.getByRole('list', { name: 'Problems' });
  await expect(problems.getByRole('listitem')).toHaveCount(3);
  const long = problems.getByRole('listitem').filter({ hasText: 'made_up_effect_one' });
  // the whole text is there (what a screen reader and a test read), drawn on two lines
  await expect(long).toHaveText(/Known effects: .*user\.ask\.$/);
  const box = () => long.evaluate((el) => ({ shown: el.clientHeight, whole: el.scrollHeight, line: parseFloat(getComputedStyle(el).lineHeight) || 18 }));
  const clamped = await box();
  expect(clamped.whole, JSON.stringify(clamped)).toBeGreaterThan(clamped.shown + 4);
  expect(clamped.shown, JSON.stringify(clamped)).toBeLessThanOrEqual(2 * clamped.line + 8);
  await page.screenshot({ path: 'test-results/screens/studio-problems-clamp.png' });
  await long.focus();
  await expect.poll(async () => { const b = await box(); return b.whole - b.shown; }).toBeLessThanOrEqual(1);
});
