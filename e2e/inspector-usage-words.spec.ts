// The run inspector's words for what a run used and what an event did, read whole:
// - the runs list, searched on an installation where no run ever failed, says "No failures" in
//   "Failed at" (before: "Hidden by search", as if the search hid a failed run), and "Hidden by
//   search" where some run did fail;
// - a replay's usage says how many of its model turns were answered from the recording (all of
//   them); the timeline header's latency says what it is;
// - the scrubber's line for a run's failing event shows the error whole (before: cut at 80
//   characters with "…", no way to read the rest).
import { expect, test, type Page } from '@playwright/test';
import { itselfFailedRun, ranTo, savedLoopSkill } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

const usageOf = (page: Page) => page.locator('dt', { hasText: /^Usage$/ }).locator('xpath=following-sibling::dd[1]');

test('runs list: a search that leaves no failed run says there are no failures only when no run ever failed', async ({ page, request }) => {
  // the server is shared with every other spec: whether some run failed already depends on what ran
  // before (alone, this file's first test sees a fresh database, where none did)
  const stats = (await (await request.get('/api/runs/stats')).json()) as { anyFailed?: boolean };
  await page.goto('/runs?q=nothing-holds-this');
  const failedAt = page.getByRole('combobox', { name: 'Failed at' });
  await expect(failedAt.locator('option:checked')).toHaveText(stats.anyFailed ? 'Hidden by search' : 'No failures');
  await expect(failedAt).toBeDisabled();
  await shotOf(page.getByRole('search', { name: 'Filter runs' }), 'test-results/screens/usage-words-no-failures.png');
});

test("a replay's usage says how many of its turns were reused from the recording", async ({ page, request }) => {
  await savedLoopSkill(request, 'loop_usage', 2);
  const runId = await ranTo(request, 'loop_usage', { n: 0 }, 'completed');
  const replayed = await request.post(`/api/runs/${runId}/replay`, { data: {} });
  expect(replayed.status(), await replayed.text()).toBe(200);
  const { replayRunId } = (await replayed.json()) as { replayRunId: string };

  // the recorded run: its own tokens, the header's latency named
  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByRole('article').first()).toBeVisible({ timeout: 30_000 });
  await expect(timeline).toContainText(/visits · [\d,]+ → [\d,]+\u00a0tok · [\d.]+\u00a0m?s model latency in total/);
  await expect(usageOf(page)).not.toContainText('reused');
  await timeline.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/usage-words-recorded-timeline.png' });

  // the replay ran no turn: every one was answered from the recording
  await page.goto(`/runs/${replayRunId}`);
  await expect(timeline.getByRole('article').first()).toBeVisible({ timeout: 30_000 });
  // every turn of the recorded run (its report counts them) reused
  const turns = ((await (await request.get(`/api/runs/${runId}`)).json()) as { report: { step_counts: { model: number } } }).report.step_counts.model;
  expect(turns).toBeGreaterThan(1);
  await expect(usageOf(page)).toHaveText(new RegExp(`^[\\d,]+ → [\\d,]+\u00a0tok · incl\\. ${turns} turns reused from the recording$`));
  await expect(timeline).toContainText(`incl. ${turns} turns reused from the recording`);
  await page.screenshot({ path: 'test-results/screens/usage-words-replay.png', fullPage: false });
  await timeline.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/usage-words-replay-timeline.png' });
});

test("the scrubber shows a failing event's error whole", async ({ page, request }) => {
  const runId = await itselfFailedRun(request, 'usage_words_failed');
  const run = (await (await request.get(`/api/runs/${runId}`)).json()) as { error: { message: string } };
  await page.goto(`/runs/${runId}`);
  const slider = page.getByRole('slider', { name: 'Step' });
  await slider.scrollIntoViewIfNeeded();
  await slider.focus();
  await page.keyboard.press('End');
  const state = page.getByRole('region', { name: 'State at step' });
  await expect(state.locator('code').first()).toHaveText('run_failed');
  const line = state.locator('header + p');
  const firstLine = run.error.message.split('\n')[0];
  await expect(line).toContainText(firstLine.slice(-30));
  await expect(line).not.toContainText('…');
  await shotOf(state, 'test-results/screens/usage-words-scrub-whole.png');
});
