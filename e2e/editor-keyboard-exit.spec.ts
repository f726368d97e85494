// A keyboard user can tab into the skill.md editor and out again. Tab indents in the editor (YAML
// needs it), so before this, Tab from the editor only ever indented: the diagram, the input, the
// model and Run could not be reached from it without a mouse. Esc then Tab moves on; Esc then
// Shift+Tab goes back; a plain Tab still indents. A note says so while the editor has the focus.
import { expect, test } from '@playwright/test';
import { WIDTHS } from './widths';

test('Esc then Tab leaves the editor for the next control; a plain Tab still indents', async ({ page }) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/skills/summarize');
    const editor = page.getByRole('region', { name: 'skill.md editor' });
    const text = editor.locator('.native-edit-context');
    await editor.locator('.view-lines').click();
    await expect(text).toBeFocused();
    const hint = editor.getByText('leaves the editor');
    await expect(hint).toBeVisible();
    await page.screenshot({ path: `test-results/screens/editor-keyboard-exit-${width}.png` });
    // a plain Tab indents and keeps the focus
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Tab');
    await expect(text).toBeFocused();
    await page.keyboard.press('Control+Z');
    // Esc then Tab: on to a control after the editor, past every part of it
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    await expect(text).not.toBeFocused();
    const after = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement;
      const ed = document.querySelector('section[aria-label="skill.md editor"]')!;
      return { inEditor: ed.contains(a), following: (ed.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0, tag: a.tagName };
    });
    expect(after).toMatchObject({ inEditor: false, following: true });
    await expect(hint).toBeHidden();
    // tabbing on reaches the run's input and Run: Tab after Tab, each checked as soon as it is pressed
    // (the focus moves with the key). As a toPass of press-then-toBeFocused, each control passed on the
    // way waited out that check's 100 ms and then toPass's growing pause, up to 1 s
    const input = page.getByRole('textbox', { name: /Input/ });
    await expect
      .poll(
        async () => {
          await page.keyboard.press('Tab');
          return input.evaluate((el) => el === document.activeElement);
        },
        { timeout: 10_000, intervals: [0] },
      )
      .toBe(true);
    await expect(input).toBeFocused();
    // back into the editor, then Esc, Shift+Tab: to a control before it
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+Tab');
    await expect(text).not.toBeFocused();
    const before = await page.evaluate(() => {
      const ed = document.querySelector('section[aria-label="skill.md editor"]')!;
      return (ed.compareDocumentPosition(document.activeElement!) & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
    });
    expect(before).toBe(true);
  }
  // the text is as it was: the Tab that indented was undone, nothing else was typed
  await expect(page.getByText('unsaved changes')).toHaveCount(0);
});
