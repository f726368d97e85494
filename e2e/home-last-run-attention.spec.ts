// The home page's Last run says how the run went as the runs list does: a run of research_brief is
// blocked by its path_guard stage (outcome blocked, needs attention); the home page showed a plain
// green "completed" for it while /runs and the studio said "needs attention".
import { expect, test } from '@playwright/test';
import { ranTo, savedExample } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

test('a blocked last run reads on the home page as it reads in the runs list: blocked, needs attention', async ({ page, request }) => {
  const name = 'home_blocked_brief';
  const files = await savedExample(request, 'research_brief', name);
  const runId = await ranTo(request, name, JSON.parse(files['input.json']) as Record<string, unknown>, 'completed');

  await page.goto(`/runs?skill=${name}`);
  const runRow = page.getByRole('table', { name: 'Runs' }).getByRole('row').filter({ has: page.getByRole('link', { name: runId }) });
  const listed = runRow.getByRole('cell').nth(1);
  await expect(listed).toContainText('needs attention');
  const listedText = ((await listed.textContent()) ?? '').trim();

  await page.goto('/');
  const row = page.getByRole('table', { name: 'Skills' }).getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  const lastRun = row.getByRole('cell').nth(2);
  await expect(lastRun.getByRole('link', { name: /blocked/ })).toHaveAttribute('href', `/runs/${runId}`);
  await expect(lastRun).toContainText('needs attention');
  // the same words as the runs list's Status cell, drawn by the same component
  expect(((await lastRun.getByRole('link').textContent()) ?? '').trim()).toBe(listedText);
  await shotOf(row, 'test-results/screens/home-last-run-blocked.png');
  await page.screenshot({ path: 'test-results/screens/home-last-run-blocked-page.png', fullPage: true });
});
