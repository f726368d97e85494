// While this app itself drives a run (it holds the run's claim), the run page's `Resume` is disabled
// and says why — a resume here could only be refused — while Abort still stops the run.
import { expect, test } from '@playwright/test';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

const SKILL = [
  '---',
  'name: driven_here',
  'entry: go',
  'graph:',
  '  go: []',
  'output_schema: { type: object }',
  'postprocessor:',
  '  output_schema: { type: object }',
  '  steps:',
  '    - { type: python, module: ./slow.py, function: nap, timeout_ms: 120000 }',
  '---',
  'Go.',
  '',
  '## go',
  'Go.',
  '',
].join('\n');
const FILES = {
  'skill.md': SKILL,
  'slow.py': 'import time\n\ndef nap(v):\n    time.sleep(60)\n    return {"napped": True}\n',
  'model.yaml': 'turns:\n  - finish: {}\n',
};

test('Resume is disabled, saying this app drives the run, while the app drives it; Abort still works', async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'driven_here' } })).status()).toBe(201);
  const saved = await request.post('/api/skills/driven_here/versions', { data: { files: FILES } });
  expect(saved.status(), await saved.text()).toBe(201);
  const started = await request.post('/api/runs', { data: { skill: 'driven_here', input: {} } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  // the app's answer says it drives the run
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { drivenHere?: boolean }).drivenHere, { timeout: 30_000 }).toBe(true);

  await page.goto(`/runs/${runId}`);
  const resume = page.getByRole('button', { name: 'Resume', exact: true });
  await expect(resume).toBeVisible();
  await expect(resume).toBeDisabled();
  await expect(resume).toHaveAttribute('title', /This app is driving the run/);
  await expect(resume).toHaveAccessibleDescription(/This app is driving the run/);
  await expect(page.getByRole('button', { name: 'Abort', exact: true })).toBeEnabled();
  // the one control that cannot be used does not look like the main action: not the primary fill
  // (the accent), but a secondary button's, as Abort's beside it
  const fills = await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.background = 'var(--accent)';
    document.body.append(probe);
    const accent = getComputedStyle(probe).backgroundColor;
    probe.remove();
    const fillOf = (name: string) => {
      const b = [...document.querySelectorAll('button')].find((x) => x.textContent?.trim() === name);
      return b ? getComputedStyle(b).backgroundColor : null;
    };
    return { accent, resume: fillOf('Resume'), abort: fillOf('Abort') };
  });
  expect(fills.resume).not.toBe(fills.accent);
  expect(fills.resume).toBe(fills.abort);
  await shotOf(page.getByRole('region', { name: 'Stop or take up this run' }), 'test-results/screens/resume-driven-here.png');

  await page.getByLabel('Abort reason').fill('done looking');
  await page.getByRole('button', { name: 'Abort', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Run status' })).toContainText('aborted', { timeout: 60_000 });
});
