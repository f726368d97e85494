// The run report's Model rounds of a replay says how many of its turns were answered from the
// recording, as its Usage does (before: the bare count, as if the model had been called for each);
// the recorded run's own figure stays the bare count.
import { expect, test, type Page } from '@playwright/test';
import { ranTo, savedLoopSkill } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

const factOf = (page: Page, name: string) => page.locator('dt', { hasText: new RegExp(`^${name}$`) }).locator('xpath=following-sibling::dd[1]');

test("a replay's model rounds say they were reused from the recording, not called", async ({ page, request }) => {
  await savedLoopSkill(request, 'loop_rounds', 2);
  const runId = await ranTo(request, 'loop_rounds', { n: 0 }, 'completed');
  const turns = ((await (await request.get(`/api/runs/${runId}`)).json()) as { report: { step_counts: { model: number } } }).report.step_counts.model;
  expect(turns).toBeGreaterThan(1);
  const replayed = await request.post(`/api/runs/${runId}/replay`, { data: {} });
  expect(replayed.status(), await replayed.text()).toBe(200);
  const { replayRunId } = (await replayed.json()) as { replayRunId: string };

  await page.goto(`/runs/${runId}`);
  const report = page.getByRole('region', { name: 'Run report' });
  await expect(factOf(page, 'Model rounds')).toHaveText(String(turns));

  await page.goto(`/runs/${replayRunId}`);
  await expect(report).toBeVisible();
  await expect(factOf(page, 'Model rounds')).toHaveText(`${turns} (all ${turns} reused from the recording)`);
  await expect(factOf(page, 'Usage')).toContainText(`incl. ${turns} turns reused from the recording`);
  // the summary sentence says the same of its rounds as the card, not a bare count as if the model had been called
  await expect(report).toContainText(`Completed: ${turns} model rounds (all ${turns} reused from the recording)`);
  await shotOf(report, 'test-results/screens/model-rounds-replay.png');
});
