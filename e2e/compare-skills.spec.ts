// The compare page names each run's skill in its card, and says so above the steps when the two runs
// are of different skills (their steps line up by position name only); two runs of one skill get
// no such line. Before, nothing on the page said which skill either run was of.
import { expect, test, type APIRequestContext } from '@playwright/test';

test.describe.configure({ timeout: 240_000 });

async function runOf(request: APIRequestContext, skill: string, input: object): Promise<string> {
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: skill, from: skill.replace(/^cmp_/, '') } })).status());
  const res = await request.post('/api/runs', { data: { skill, input } });
  expect(res.status(), await res.text()).toBe(201);
  const { runId } = (await res.json()) as { runId: string };
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 120_000 }).toBe('completed');
  return runId;
}

test('comparing runs of two skills names both and says their steps line up by name only', async ({ page, request }) => {
  const a = await runOf(request, 'cmp_summarize', { path: 'report.txt' });
  const b = await runOf(request, 'cmp_code_review', {});
  await page.goto(`/runs/compare?a=${a}&b=${b}`);
  const comparison = page.getByRole('region', { name: 'Comparison' });
  await expect(comparison).toContainText('A is a run of cmp_summarize and B a run of cmp_code_review: steps of two skills are aligned by position name only.');
  await expect(comparison.getByRole('group', { name: 'Run A' })).toContainText('cmp_summarize');
  await expect(comparison.getByRole('group', { name: 'Run B' })).toContainText('cmp_code_review');
  await page.screenshot({ path: 'test-results/screens/compare-two-skills.png' });

  const a2 = await runOf(request, 'cmp_summarize', { path: 'report.txt' });
  await page.goto(`/runs/compare?a=${a}&b=${a2}`);
  await expect(comparison).toContainText('identical');
  await expect(comparison).not.toContainText('A is a run of');
});
