// The run report's count cards of a replay or a fork — Model rounds, Tool calls, Stages, Processor
// steps — say how many of their steps were answered from the recording, in the same words, as its
// summary does. Before, Tool calls read "2 (2 ok)" beside a summary that said "2 tool calls (all 2
// reused)": as if the tools had been called again; then a fork's Stages and Processor steps said
// their statuses alone. The recorded run's cards, and a replay's stages and processor steps (which
// really run again), keep their words.
import { expect, test, type Page } from '@playwright/test';
import { ranTo, savedLoopSkill } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

// the report's own card (the state at a step has a Tool calls fact of its own)
const factOf = (page: Page, name: string) =>
  page.getByRole('region', { name: 'Run report' }).locator('dt', { hasText: new RegExp(`^${name}$`) }).locator('xpath=following-sibling::dd[1]');

type Report = { step_counts: Record<'model' | 'tool' | 'stage' | 'processor', number> & Record<'tool_by_status' | 'stage_by_status' | 'processor_by_status', Record<string, number>>; reused: Record<string, number> };
const reportOf = async (request: import('@playwright/test').APIRequestContext, runId: string) => ((await (await request.get(`/api/runs/${runId}`)).json()) as { report: Report }).report;
const statuses = (by: Record<string, number>) =>
  Object.entries(by)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');

test("a replay's count cards say what was reused from the recording; the recorded run's say their statuses alone", async ({ page, request }) => {
  for (const [name, loops] of [
    ['tools_reused', 2],
    ['tools_reused_long', 40],
  ] as const) {
    await savedLoopSkill(request, name, loops);
    const runId = await ranTo(request, name, { n: 0 }, 'completed');
    const counts = (await reportOf(request, runId)).step_counts;
    const tools = counts.tool;
    expect(tools).toBeGreaterThan(1);
    expect(counts.tool_by_status).toEqual({ ok: tools });
    expect(counts.stage).toBeGreaterThan(1);
    expect(counts.processor).toBeGreaterThan(1);
    const replayed = await request.post(`/api/runs/${runId}/replay`, { data: {} });
    expect(replayed.status(), await replayed.text()).toBe(200);
    const { replayRunId } = (await replayed.json()) as { replayRunId: string };
    // the replay answered its model turns and tool calls from the recording; its stages and processor steps ran
    expect((await reportOf(request, replayRunId)).reused).toEqual({ model: counts.model, tool: tools, stage: 0, processor: 0 });

    await page.goto(`/runs/${runId}`);
    const report = page.getByRole('region', { name: 'Run report' });
    await expect(factOf(page, 'Tool calls')).toHaveText(`${tools} (${tools} ok)`);
    await expect(factOf(page, 'Stages')).toHaveText(`${counts.stage} (${statuses(counts.stage_by_status)})`);
    await expect(factOf(page, 'Processor steps')).toHaveText(`${counts.processor} (${statuses(counts.processor_by_status)})`);
    await expect(factOf(page, 'Model rounds')).toHaveText(`${counts.model}`);
    await expect(report).toContainText(`, ${tools} tool calls, `);
    await shotOf(report, `test-results/screens/counts-recorded-${loops}.png`);

    await page.goto(`/runs/${replayRunId}`);
    await expect(report).toBeVisible();
    await expect(report).toContainText(`${tools} tool calls (all ${tools} reused)`);
    await expect(factOf(page, 'Tool calls')).toHaveText(`${tools} (all ${tools} reused from the recording; ${tools} ok)`);
    await expect(factOf(page, 'Model rounds')).toHaveText(`${counts.model} (all ${counts.model} reused from the recording)`);
    // run again, not reused: their statuses alone, as the recorded run's
    await expect(factOf(page, 'Stages')).toHaveText(`${counts.stage} (${statuses(counts.stage_by_status)})`);
    await expect(factOf(page, 'Processor steps')).toHaveText(`${counts.processor} (${statuses(counts.processor_by_status)})`);
    await shotOf(report, `test-results/screens/counts-replay-${loops}.png`);
  }
});

test("a fork's Stages and Processor steps say how many were reused from the recording before its point, as its Tool calls do", async ({ page, request }) => {
  await savedLoopSkill(request, 'counts_forked', 2);
  const parent = await ranTo(request, 'counts_forked', { n: 0 }, 'completed');
  // from the finish on: every step before it answered from the parent's recording
  const forked = await request.post(`/api/runs/${parent}/fork`, { data: { at: '__post__' } });
  expect(forked.status(), await forked.text()).toBe(201);
  const forkId = ((await forked.json()) as { runId: string }).runId;
  await expect.poll(async () => ((await (await request.get(`/api/runs/${forkId}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe('completed');
  const { step_counts: c, reused } = await reportOf(request, forkId);
  expect(reused.stage).toBeGreaterThan(0);
  expect(reused.processor).toBeGreaterThan(0);
  // `all 3` when every one was reused, `2` when some were not
  const part = (n: number, of: number) => (n === of && of > 1 ? `all ${n}` : `${n}`);

  await page.goto(`/runs/${forkId}`);
  const report = page.getByRole('region', { name: 'Run report' });
  await expect(report).toBeVisible();
  await expect(factOf(page, 'Stages')).toHaveText(`${c.stage} (${part(reused.stage, c.stage)} reused from the recording; ${statuses(c.stage_by_status)})`);
  await expect(factOf(page, 'Processor steps')).toHaveText(`${c.processor} (${part(reused.processor, c.processor)} reused from the recording; ${statuses(c.processor_by_status)})`);
  await expect(factOf(page, 'Tool calls')).toHaveText(`${c.tool} (${part(reused.tool, c.tool)} reused from the recording; ${statuses(c.tool_by_status)})`);
  // the statuses dim, the note not
  await expect(factOf(page, 'Stages').locator('span')).toHaveText(`; ${statuses(c.stage_by_status)}`);
  await shotOf(report, 'test-results/screens/counts-fork.png');
});
