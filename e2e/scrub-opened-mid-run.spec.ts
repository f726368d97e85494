// A run's page opened while the run records events: the server reads the run (its event count) and then
// its timeline, and events recorded between the two reads made the timeline's end later than the
// count. The scrubber started at the count, which it took for a step the user had moved back to, so it
// never followed the run: the run completed and the page stayed at that event, without the run's output
// (the studio's first-run test failed so in CI). It now starts at the end it is given, and follows it.
import { expect, test } from '@playwright/test';
import { eventsForLoops } from '../bench/loop-bundle';
import { savedLoopSkill } from './skill-runs';

test.describe.configure({ timeout: 180_000 });

const LOOPS = 40;

test("a run's page opened while the run records events follows it to its last event and shows its output", async ({ page, request }, info) => {
  const skill = `loop_opened_mid_${info.repeatEachIndex}`;
  await savedLoopSkill(request, skill, LOOPS);
  const started = await request.post('/api/runs', { data: { skill, input: { n: 0 } } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  // opened once the run records events steadily, well before its end
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { eventCount: number }).eventCount, { timeout: 60_000, intervals: [100] }).toBeGreaterThan(20);
  const opened = await page.goto(`/runs/${runId}`);
  expect(await opened!.text(), 'the page was served while the run went on (a longer run is needed)').toContain('data-status="running"');

  const last = eventsForLoops(LOOPS);
  await expect(page.getByRole('region', { name: 'Run status' })).toContainText('completed', { timeout: 120_000 });
  const state = page.getByRole('region', { name: 'State at step' });
  await expect(state).toContainText(`Event ${last} of ${last}`, { timeout: 30_000 });
  await expect(page.getByLabel("the run's output")).toContainText(`${LOOPS} steps`);
  await expect(page.getByRole('slider', { name: 'Step' })).toHaveAttribute('aria-valuetext', `event ${last} of ${last}`);
});
