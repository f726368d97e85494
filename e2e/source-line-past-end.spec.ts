// A link back to the source whose ?line= is past the end of its file (a hand-edited address, a line
// of another version): the studio says so and reveals no line. Before, the editor marked its last
// line as if that were the line asked for, and nothing said otherwise.
import { expect, test } from '@playwright/test';

test('?line= past the end of skill.md is named, and no line is marked', async ({ page }) => {
  await page.goto('/skills/summarize?line=9999');
  await expect(page.getByRole('alert').filter({ hasText: /\?line=9999: skill\.md has \d+ lines\. No line is revealed\./ })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'skill.md', selected: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/source-line-past-end.png' });
});
