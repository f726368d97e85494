// The skill.md reference is one long page: its table of contents lists each section's subsections
// (every frontmatter key, every step type), so `graph` is one click from the top, not a scroll.
import { expect, test } from '@playwright/test';

test('the reference lists each frontmatter key under its section, and a click goes to it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/docs/skill-md');
  const toc = page.getByRole('navigation', { name: 'On this page' });
  await expect(toc.getByRole('link', { name: 'Frontmatter keys' })).toBeVisible();
  for (const key of ['graph', 'phases', 'postprocessor', 'run_op']) await expect(toc.getByRole('link', { name: key, exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/docs-toc.png' });
  await toc.getByRole('link', { name: 'graph', exact: true }).click();
  await expect(page).toHaveURL(/#graph$/);
  await expect(page.getByRole('heading', { name: 'graph', exact: true })).toBeInViewport();
  // narrow: the sections only, in two columns (the page is not pushed down by forty lines)
  await page.setViewportSize({ width: 800, height: 900 });
  await expect(toc.getByRole('link', { name: 'Frontmatter keys' })).toBeVisible();
  await expect(toc.getByRole('link', { name: 'graph', exact: true })).toBeHidden();
  await page.screenshot({ path: 'test-results/screens/docs-toc-800.png' });
});
