// Runs past STAGECRAFT_MAX_RUNS wait their turn, and the pages say so: the runs list shows them
// `queued`, a queued run's page says it is waiting and follows it live until it completes.
// Each run's step waits for the test's go (e2e/run-gate.ts), so the last queued one still waits when its
// page opens, however loaded the machine (a 12 s sleep once ran out first); its page is opened first, the
// runs list after, in a second tab, and only then does every run get its go.
import { expect, test } from '@playwright/test';
import { gatedWait, go, workspaceIfMade } from './run-gate';

const SLOW = {
  'skill.md': `---\nname: queue_probe\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npostprocessor:\n  output_schema: { type: object }\n  steps:\n    - { type: node, module: ./wait.mjs, function: wait, timeout_ms: 180000 }\n---\nGo.\n`,
  'wait.mjs': gatedWait,
  'model.yaml': 'turns:\n  - finish: {}\n',
};

test('a queued run is shown queued, then followed live to its end', async ({ page, request, baseURL }) => {
  const headers = { origin: baseURL! };
  expect((await request.post('/api/skills', { data: { name: 'queue_probe', from: 'blank' }, headers })).status()).toBe(201);
  expect((await request.post('/api/skills/queue_probe/versions', { data: { files: SLOW }, headers })).status()).toBe(201);
  // start runs until a whole round of them has to wait (the limit is twice this machine's CPUs): the last waits for two rounds
  const waiting: string[] = [];
  const all: string[] = [];
  let started = 0;
  for (let i = 0; i < 60 && (waiting.length === 0 || waiting.length < started - waiting.length); i++) {
    const { runId } = (await (await request.post('/api/runs', { data: { skill: 'queue_probe', input: { i } }, headers })).json()) as { runId: string };
    started++;
    all.push(runId);
    if (((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status === 'queued') waiting.push(runId);
  }
  const queued = waiting.at(-1) ?? '';
  expect(queued, 'a run waited its turn').not.toBe('');

  await page.goto(`/runs/${queued}`);
  const status = page.getByRole('region', { name: 'Run status' });
  await expect(status).toContainText('queued');
  await expect(page.getByText('The run is queued, waiting for its turn')).toBeVisible();
  await page.screenshot({ path: 'test-results/e2e/queue-run-page.png' });
  // the runs list, in a second tab, while the run's page stays open and follows it
  const list = await page.context().newPage();
  await list.goto('/runs?skill=queue_probe');
  await expect(list.locator('[data-status="queued"]').first()).toBeVisible();
  await list.screenshot({ path: 'test-results/e2e/queue-runs-list.png' });
  await list.close();
  // every run's go: at once to those with a workspace, to a queued one when its own is made
  const pending = new Set(all);
  const goWhereMade = () => {
    for (const id of pending) {
      const workspace = workspaceIfMade(id);
      if (!workspace) continue;
      go(workspace, 0);
      pending.delete(id);
    }
    return pending.size;
  };
  await expect.poll(goWhereMade, { timeout: 90_000 }).toBe(0);
  await expect(status).toContainText('completed', { timeout: 90_000 });
  // and the rest of the page with it: the report and the timeline of what ran, not of the queued run
  await expect(page.getByRole('region', { name: 'Run report' })).toContainText('Completed: 1 model round, 0 tool calls, 0 stages, 1 processor step.');
  await expect(page.getByRole('region', { name: 'Timeline' })).toContainText('1 visit');
  await page.screenshot({ path: 'test-results/e2e/queue-run-completed.png' });
});
