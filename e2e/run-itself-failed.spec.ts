// A run that failed outside any step (here its model script has no turn left after the finish was
// rejected) does not read "0 failures" / "Nothing failed" in its timeline: it says the run itself failed.
import { expect, test } from '@playwright/test';

test.describe.configure({ timeout: 240_000 });

test('a failed run with no failed item says the run itself failed, in the count and under Failed only', async ({ page, request }) => {
  const got = await request.get('/api/skills/summarize');
  const files = ((await got.json()) as { version: { files: Record<string, string> } }).version.files;
  files['skill.md'] = files['skill.md'].replace('name: summarize', 'name: itself_failed').replace('minItems: 1', 'minItems: 5');
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: 'itself_failed', from: 'summarize' } })).status());
  expect((await request.post('/api/skills/itself_failed/versions', { data: { files } })).status()).toBe(201);
  const started = await request.post('/api/runs', { data: { skill: 'itself_failed', input: { path: 'report.txt' } } });
  const { runId } = (await started.json()) as { runId: string };
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe('failed');

  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline).toContainText('the run itself failed');
  await expect(timeline).not.toContainText('0 failures');
  await page.getByRole('checkbox', { name: 'Failed only' }).check();
  await expect(timeline).toContainText('the run report says why');
  await expect(timeline).not.toContainText('Nothing failed');
});
