// Fork from here goes on with the skill's latest version by default; the dialog lets another saved
// version be chosen (as `stagecraft fork --version` and the API could), and the fork runs with it —
// the way on when the latest changed a step before the fork point and the server refuses it.
import { expect, test } from '@playwright/test';
import { ranTo } from './skill-runs';

test('the fork dialog offers the skill’s versions, the latest first; a fork with an older one runs that version', async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'fork_ver', from: 'summarize' } })).status()).toBe(201);
  const first = (await (await request.get('/api/skills/fork_ver')).json()) as { version: { hash: string; files: Record<string, string> } };
  const older = first.version.hash;
  const runId = await ranTo(request, 'fork_ver', { path: 'report.txt' }, 'completed');
  // a newer version, saved after the run
  const files = { ...first.version.files, 'skill.md': `${first.version.files['skill.md']}\n<!-- a newer version -->\n` };
  const saved = await request.post('/api/skills/fork_ver/versions', { data: { files } });
  expect(saved.status(), await saved.text()).toBe(201);
  const newer = ((await saved.json()) as { version: { hash: string } }).version.hash;
  expect(newer).not.toBe(older);

  await page.goto(`/runs/${runId}`);
  await page.getByRole('button', { name: 'Fork from here' }).click();
  const dialog = page.getByRole('dialog', { name: 'Fork from here' });
  const version = dialog.getByLabel('Version');
  await expect(version.getByRole('option')).toHaveText([`${newer.slice(0, 12)} · latest`, new RegExp(`^${older.slice(0, 12)} · saved .* · this run's$`)]);
  // the newer version changed the prompt before the finish artifact: the latest cannot go on from there, and says so
  await expect(dialog.getByRole('alert')).toContainText('or fork with the version the run recorded');
  await version.selectOption({ index: 1 });
  await expect(dialog.getByLabel(/^Value at __post__/)).toHaveValue(/"paragraphs": \[/);
  await page.screenshot({ path: 'test-results/screens/fork-version.png' });
  await dialog.getByRole('button', { name: 'Start fork' }).click();
  await page.waitForURL((u) => !u.pathname.endsWith(runId) && /\/runs\/run_/.test(u.pathname));
  const forkId = page.url().split('/runs/')[1];
  const fork = (await (await request.get(`/api/runs/${forkId}`)).json()) as { version: string; parentRunId: string };
  expect(fork.parentRunId).toBe(runId);
  expect(fork.version).toBe(older);
});
