// A run queued when its page opened, then taken up by this app: its page follows it to `running`
// and then says this app drives it — Resume disabled, with why — without a reload. The page's run
// view is read again as the run's events arrive (use-live-run.ts); whether this app drives the run
// is part of that view, so it is decided anew with each read, not once when the page loads.
import { expect, test, type APIRequestContext } from '@playwright/test';

test.describe.configure({ timeout: 240_000 });

const FILES = {
  'skill.md': `---\nname: driven_later\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npostprocessor:\n  output_schema: { type: object }\n  steps:\n    - { type: node, module: ./wait.mjs, function: wait, timeout_ms: 180000 }\n---\nGo.\n`,
  'wait.mjs': 'export async function wait() { await new Promise((r) => setTimeout(r, 90000)); return { waited: true }; }\n',
  'model.yaml': 'turns:\n  - finish: {}\n',
};

const statusOf = async (request: APIRequestContext, runId: string) => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status;

test('a run queued at page load and then driven here: Resume turns disabled, saying this app drives it, as the run starts', async ({ page, request, baseURL }) => {
  const headers = { origin: baseURL! };
  expect((await request.post('/api/skills', { data: { name: 'driven_later', from: 'blank' }, headers })).status()).toBe(201);
  const saved = await request.post('/api/skills/driven_later/versions', { data: { files: FILES }, headers });
  expect(saved.status(), await saved.text()).toBe(201);
  // every slot taken by a run that waits, then one more: it is queued
  const ahead: string[] = [];
  let queued = '';
  for (let i = 0; i < 40 && !queued; i++) {
    const started = await request.post('/api/runs', { data: { skill: 'driven_later', input: { i } }, headers });
    expect(started.status(), await started.text()).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    if ((await statusOf(request, runId)) === 'queued') queued = runId;
    else ahead.push(runId);
  }
  expect(queued, 'a run waited its turn').not.toBe('');
  try {
    await page.goto(`/runs/${queued}`);
    const status = page.getByRole('region', { name: 'Run status' });
    await expect(status).toContainText('queued');
    await expect(page.getByRole('button', { name: 'Resume', exact: true })).toHaveCount(0);

    // the runs ahead end: this app takes the queued one up, and drives it (its step waits 90 s)
    for (const id of ahead) await request.post(`/api/runs/${id}/abort`, { data: { reason: 'make room' }, headers });
    await expect(status).toContainText('running', { timeout: 60_000 });
    const resume = page.getByRole('button', { name: 'Resume', exact: true });
    await expect(resume).toBeVisible();
    await expect(resume).toBeDisabled();
    await expect(resume).toHaveAttribute('title', /This app is driving the run/);
    await expect(resume).toHaveAccessibleDescription(/This app is driving the run/);
    await page.screenshot({ path: 'test-results/screens/driven-here-live.png' });
  } finally {
    for (const id of [...ahead, queued]) if (id) await request.post(`/api/runs/${id}/abort`, { data: { reason: 'test over' }, headers });
  }
});
