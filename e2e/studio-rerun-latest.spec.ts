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
  const fork = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

  // the failed run was taken on and completed: it no longer needs attention anywhere, keeps its status,
  // says which run took it on, and is not offered the rerun again
  await page.goto(`/skills/${name}`);
  const row = recent.getByRole('listitem').filter({ hasText: failed }).first();
  await expect(row).toContainText(`taken on by ${fork}, completed · `); // then the row's time, not the fork's
  await expect(row).not.toContainText('needs attention');
  await expect(row.getByRole('button', { name: /^Rerun from/ })).toHaveCount(0);
  await shotOf(page.getByRole('region', { name: 'Recent runs' }), 'test-results/screens/studio-rerun-taken-on.png');

  await page.goto(`/runs?skill=${name}`);
  // its own row (the fork's row names it too, as what it is a fork of)
  const listed = page.getByRole('row').filter({ has: page.locator(`th > a[href="/runs/${failed}"]`) });
  await expect(listed.getByRole('cell').nth(1)).toContainText('aborted · blocked'); // its status stays (a step aborted it)
  await expect(listed).toContainText(`taken on by ${fork}, completed`);
  await expect(listed).not.toContainText('needs attention');
  await expect(page.getByText(/\d+ need attention/)).toHaveText('0 need attention');
  await shotOf(listed, 'test-results/screens/runs-row-taken-on.png');
  await page.goto(`/runs?skill=${name}&attention=1`);
  await expect(page.getByText(/\d+ need attention/)).toHaveText('0 need attention');
  await expect(page.getByRole('link', { name: fork, exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: failed, exact: true })).toHaveCount(0);

  await page.goto(`/runs/${failed}`);
  const lineage = page.getByRole('region', { name: 'Replays and forks' });
  await expect(lineage).toContainText(`Taken on by the fork ${fork}, which completed: this run no longer needs attention.`);
  await shotOf(lineage, 'test-results/screens/run-page-taken-on.png');
});
