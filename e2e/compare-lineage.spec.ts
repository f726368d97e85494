// Compare, on a run beside its fork (or its replay), says how the two are related: the fork's point,
// whether its value there was edited, and that the steps before it are the parent's, reused. Before,
// a fork that edited a step's input read "First divergence at __post__/1 — output changed" between
// two runs the page did not relate, though the divergence was the fork's own edit.
import { expect, test } from '@playwright/test';
import { ranTo } from './skill-runs';
import { shotOf } from './shots';

test('a run compared with its fork says B is a fork of A, from where, with the value there edited; its replay, a replay', async ({ page, request }) => {
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: 'lineage_compare', from: 'summarize' } })).status());
  const parent = await ranTo(request, 'lineage_compare', { path: 'report.txt' }, 'completed');
  const res = await request.post(`/api/runs/${parent}/fork`, { data: { at: '__post__', value: { paragraphs: ['One forked paragraph.'] } } });
  expect(res.status(), await res.text()).toBe(201);
  const fork = ((await res.json()) as { runId: string }).runId;
  await expect.poll(async () => ((await (await request.get(`/api/runs/${fork}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe('completed');

  await page.goto(`/runs/compare?a=${parent}&b=${fork}`);
  const comparison = page.getByRole('region', { name: 'Comparison' });
  await expect(comparison).toContainText('First divergence at __post__/0');
  await expect(comparison).toContainText("B is a fork of A, from __post__ with the value there edited: the steps before that point are A's, answered from the recording; from there on B ran live.");
  await shotOf(comparison, 'test-results/screens/compare-lineage-fork.png');
  // the other way round, A is the fork
  await page.goto(`/runs/compare?a=${fork}&b=${parent}`);
  await expect(comparison).toContainText('A is a fork of B, from __post__ with the value there edited');

  const replayed = await request.post(`/api/runs/${parent}/replay`, { data: {} });
  expect(replayed.status(), await replayed.text()).toBe(200);
  const { replayRunId } = (await replayed.json()) as { replayRunId: string };
  await page.goto(`/runs/compare?a=${parent}&b=${replayRunId}`);
  await expect(comparison).toContainText("B is a replay of A: its model turns and tool outcomes are A's, answered from the recording; its stages and processor steps ran again.");
  // two runs neither derived from the other: nothing said of it
  await page.goto(`/runs/compare?a=${replayRunId}&b=${fork}`);
  await expect(comparison).toBeVisible();
  await expect(comparison).not.toContainText(' is a fork of ');
  await expect(comparison).not.toContainText(' is a replay of ');
});
