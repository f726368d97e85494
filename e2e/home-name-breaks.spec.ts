// The skills table at 800 px: a skill name that does not fit its cell on one line wraps after an
// `_` (code_<br>review), never inside a word. Before, the name broke at any letter and read
// "blog_wr / iter", "summari / ze".
import { expect, test } from '@playwright/test';

test('at 800 px a skill name wraps only after its underscores', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto('/');
  const table = page.getByRole('table', { name: 'Skills' });
  for (const name of ['blog_writer', 'code_review', 'research_brief', 'summarize']) {
    const link = table.getByRole('link', { name, exact: true });
    await expect(link).toBeVisible();
    // every word of the name (the pieces between underscores) is drawn on one line
    const split = await link.evaluate((el) => {
      const text = el.textContent ?? '';
      const words: string[] = [];
      let at = 0;
      for (const word of text.split('_')) {
        const range = document.createRange();
        // the text may be in several nodes: find the one holding this word's offset
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        let node: Node | null;
        let start = 0;
        const tops = new Set<number>();
        while ((node = walker.nextNode())) {
          const len = node.textContent!.length;
          for (let i = 0; i < len; i++) {
            const pos = start + i;
            if (pos >= at && pos < at + word.length) {
              range.setStart(node, i);
              range.setEnd(node, i + 1);
              tops.add(Math.round(range.getBoundingClientRect().top));
            }
          }
          start += len;
        }
        if (tops.size > 1) words.push(word);
        at += word.length + 1;
      }
      return words;
    });
    expect(split, `${name}: no word split over two lines`).toEqual([]);
  }
  await page.screenshot({ path: 'test-results/screens/home-names-800.png' });
});
