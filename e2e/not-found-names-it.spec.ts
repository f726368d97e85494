// An unknown run or skill in the address: the page names what was not found (the run id, the skill
// name) and offers the list to find the right one first. Before, both got the page for any unknown
// address ("There is no page at this address…"), which did not say a run or a skill was looked for,
// nor which.
import { expect, test } from '@playwright/test';

test('an unknown run id is named on its not-found page, with the runs list first', async ({ page }) => {
  const res = await page.goto('/runs/run_nosuchrun0001');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Nothing here', level: 1 })).toBeVisible();
  await expect(page.getByText('There is no run run_nosuchrun0001.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'See recent runs' })).toHaveClass(/btn-primary/);
  await page.screenshot({ path: 'test-results/screens/not-found-run.png' });
});

test('an unknown skill name is named on its not-found page, with the skills list first', async ({ page }) => {
  const res = await page.goto('/skills/no_such_skill_x');
  expect(res?.status()).toBe(404);
  await expect(page.getByText('There is no skill no_such_skill_x.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to Skills' })).toHaveClass(/btn-primary/);
});

test('any other unknown address keeps the general words', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('There is no page at this address.', { exact: false })).toBeVisible();
});

test('a long id from the address wraps inside the page, never past the window', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 700 });
  const id = `run_${'x'.repeat(200)}`;
  await page.goto(`/runs/${id}`);
  const words = page.getByText(`There is no run ${id}.`);
  await expect(words).toBeVisible();
  const box = await words.evaluate((p) => ({ right: p.getBoundingClientRect().right, scroll: document.documentElement.scrollWidth }));
  expect(box.right).toBeLessThanOrEqual(800);
  expect(box.scroll).toBeLessThanOrEqual(800);
});
