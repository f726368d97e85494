// A run that needs attention leads its row in the runs list with what failed, in the error's own
// words — the failed step's error line as the run report shows it — not with a generic status.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';

test.describe.configure({ timeout: 240_000 });

const FIXTURE = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'tally');

test("a failed run's row leads with its error's own words, as the run report shows them", async ({ page, request }) => {
  const files = Object.fromEntries(readdirSync(FIXTURE).map((f) => [f, readFileSync(path.join(FIXTURE, f), 'utf8').replace(/^name: tally$/m, 'name: words_tally')]));
  expect((await request.post('/api/skills', { data: { name: 'words_tally' } })).status()).toBe(201);
  expect((await request.post('/api/skills/words_tally/versions', { data: { files } })).status()).toBe(201);
  const started = await request.post('/api/runs', { data: { skill: 'words_tally', input: { path: 'note.txt' } } });
  expect(started.status()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe('aborted');

  const words = "python function total in total.py raised KeyError: 'count' (at total.py:3)";
  // the run report's words for the failed step
  await page.goto(`/runs/${runId}`);
  await expect(page.getByRole('region', { name: 'Run report' })).toContainText(words);

  await page.goto('/runs?skill=words_tally');
  const row = page.getByRole('table', { name: 'Runs' }).getByRole('row').filter({ has: page.getByRole('link', { name: runId }) });
  const status = row.getByRole('cell').nth(1);
  await expect(status).toHaveText(new RegExp(`^${words.replace(/[()]/g, '\\$&')} at __post__/0`));
  await expect(status).toContainText('needs attention');
  // the kernel's wrapper ("postprocessor step 0 (python, …) failed:") and the traceback are not the row's words
  await expect(status).not.toContainText('Traceback');
  await expect(status).not.toContainText('postprocessor step 0');
});
