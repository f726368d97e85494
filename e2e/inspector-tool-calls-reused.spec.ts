// The run report's Tool calls card of a replay says how many of its calls were answered from the
// recording, as its Model rounds card and its summary do. Before, it read "2 (2 ok)" beside a
// summary that said "2 tool calls (all 2 reused)": as if the tools had been called again. The
// recorded run's card keeps its words.
import { expect, test, type Page } from '@playwright/test';
import { ranTo, savedLoopSkill } from './skill-runs';

test.describe.configure({ timeout: 180_000 });

// the report's own card (the state at a step has a Tool calls fact of its own)
const factOf = (page: Page, name: string) =>
  page.getByRole('region', { name: 'Run report' }).locator('dt', { hasText: new RegExp(`^${name}$`) }).locator('xpath=following-sibling::dd[1]');

test("a replay's tool calls say they were reused from the recording; the recorded run's say their statuses alone", async ({ page, request }) => {
  for (const [name, loops] of [
    ['tools_reused', 2],
    ['tools_reused_long', 40],
  ] as const) {
    await savedLoopSkill(request, name, loops);
    const runId = await ranTo(request, name, { n: 0 }, 'completed');
    const counts = ((await (await request.get(`/api/runs/${runId}`)).json()) as { report: { step_counts: { tool: number; tool_by_status: Record<string, number> } } }).report.step_counts;
    const tools = counts.tool;
    expect(tools).toBeGreaterThan(1);
    expect(counts.tool_by_status).toEqual({ ok: tools });
    const replayed = await request.post(`/api/runs/${runId}/replay`, { data: {} });
    expect(replayed.status(), await replayed.text()).toBe(200);
    const { replayRunId } = (await replayed.json()) as { replayRunId: string };

    await page.goto(`/runs/${runId}`);
    const report = page.getByRole('region', { name: 'Run report' });
    await expect(factOf(page, 'Tool calls')).toHaveText(`${tools} (${tools} ok)`);
    await expect(report).toContainText(`, ${tools} tool calls, `);

    await page.goto(`/runs/${replayRunId}`);
    await expect(report).toBeVisible();
    await expect(report).toContainText(`${tools} tool calls (all ${tools} reused)`);
    await expect(factOf(page, 'Tool calls')).toHaveText(`${tools} (all ${tools} reused from the recording; ${tools} ok)`);
    // as the Model rounds card says its own
    await expect(factOf(page, 'Model rounds')).toHaveText(/^\d+ \(all \d+ reused from the recording\)$/);
    await report.screenshot({ path: `test-results/screens/tool-calls-replay-${loops}.png` });
  }
});
