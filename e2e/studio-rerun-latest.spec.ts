// After saving a fix in the studio, the failed run in its recent runs offers the next step there:
// `Rerun from __post__/0 with version <the fix>`, which reruns it from its failed step with the saved
// version (no model called for the steps before) and opens the new run. Before, the row said only
// "needs attention at __post__/0": the way on was to open the run and find `Rerun from here`.
import { expect, test } from '@playwright/test';
import { failedTallyRun, fixtureFiles } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

test('a failed run in the studio recent runs is rerun from its failed step with the version just saved', async ({ page, request }) => {
  const name = 'rerun_latest_tally';
  const failed = await failedTallyRun(request, name);
  await page.goto(`/skills/${name}`);
  const recent = page.getByRole('list', { name: 'Recent runs' });
  await expect(recent.getByRole('listitem').filter({ hasText: failed })).toContainText('needs attention at __post__/0');
  // the run's own version is the latest: nothing to rerun it with yet
  await expect(recent.getByRole('button', { name: /^Rerun from/ })).toHaveCount(0);

  const files = fixtureFiles('tally', name);
  const fixed = await request.post(`/api/skills/${name}/versions`, { data: { files: { ...files, 'total.py': files['total.py'].replace('value["count"]', 'value["counts"]') } } });
  expect(fixed.status(), await fixed.text()).toBe(201);
  const latest = ((await fixed.json()) as { version: { hash: string } }).version.hash;
  await page.reload();
  const rerun = recent.getByRole('listitem').filter({ hasText: failed }).getByRole('button', { name: `Rerun from __post__/0 with version ${latest.slice(0, 8)}` });
  await expect(rerun).toBeEnabled();
  await shotOf(page.getByRole('region', { name: 'Recent runs' }), 'test-results/screens/studio-rerun-latest.png');
  await rerun.click();
  await page.waitForURL((u) => /\/runs\/run_/.test(u.pathname) && !u.pathname.endsWith(failed));
  await expect(page.getByRole('region', { name: 'Run status' })).toContainText('completed', { timeout: 30_000 });
  await expect(page.getByRole('region', { name: 'Caller artifact' })).toContainText('"total": 10');
});
