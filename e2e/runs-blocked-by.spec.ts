// A run of research_brief completes blocked: its path_guard stage denies a tool call. Its /runs row
// said only "completed · blocked needs attention" — not by what or why, as a failed row says where
// it failed and its error. The row now leads with the run report's words, "blocked by stage
// path_guard: denied call N (reading secrets/keys.txt is not allowed by path_guard)", as does the
// home page's Last run (the same component, the same words); the studio's Recent runs says "needs
// attention (blocked): stage path_guard denied call N (…)"; GET /api/runs carries `blockedBy`.
import { expect, test } from '@playwright/test';
import { ranTo, savedExample } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

test('a blocked run row says which stage blocked it and why, on /runs and the home page', async ({ page, request }) => {
  const name = 'runs_blocked_by_brief';
  const files = await savedExample(request, 'research_brief', name);
  const runId = await ranTo(request, name, JSON.parse(files['input.json']) as Record<string, unknown>, 'completed');

  const api = await (await request.get(`/api/runs?skill=${name}`)).json();
  const item = api.runs.find((r: { runId: string }) => r.runId === runId);
  expect(item.outcome).toBe('blocked');
  expect(item.blockedBy).toMatchObject({ stage: 'path_guard', reason: 'reading secrets/keys.txt is not allowed by path_guard' });
  const call = item.blockedBy.call as number;
  const words = `blocked by stage path_guard: denied call ${call} (reading secrets/keys.txt is not allowed by path_guard)`;

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/runs?skill=${name}`);
  const runRow = page.getByRole('table', { name: 'Runs' }).getByRole('row').filter({ has: page.getByRole('link', { name: runId }) });
  const status = runRow.getByRole('cell').nth(1);
  await expect(status).toContainText(words);
  // what it said before stays, after the new words
  await expect(status).toContainText('needs attention');
  await expect(status).toContainText('blocked');
  await shotOf(runRow, 'test-results/screens/runs-blocked-by-row.png');
  await page.screenshot({ path: 'test-results/screens/runs-blocked-by.png' });

  await page.goto('/');
  const row = page.getByRole('table', { name: 'Skills' }).getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(row.getByRole('cell').nth(2)).toContainText(words);
  await shotOf(row, 'test-results/screens/home-last-run-blocked-by.png');

  // the studio's Recent runs: its words kept whole, then the report summary's ("Completed, but blocked: stage … denied call …")
  await page.goto(`/skills/${name}`);
  const recent = page.getByRole('list', { name: 'Recent runs' }).getByRole('listitem').filter({ has: page.getByRole('link', { name: runId }) });
  await expect(recent).toContainText(`needs attention (blocked): stage path_guard denied call ${call} (reading secrets/keys.txt is not allowed by path_guard)`);
  await shotOf(page.getByRole('region', { name: 'Recent runs' }), 'test-results/screens/studio-recent-blocked-by.png');
});
