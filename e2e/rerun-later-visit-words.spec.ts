// A run its model contract stopped on the 2nd visit of a phase: the runs list counts it at the phase
// (its "Failed at" groups failures by place), and its page names the same place with the visit beside
// it — "Phase work (2nd visit)" — while Rerun from here takes on that visit (work#2). Before, the page
// said work#2 where the list said work.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { writeLoopBundle } from '../bench/loop-bundle';
import { ranTo } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 120_000 });

/**
 * the loop skill, 2 loops, whose step allows n up to 1: the 2nd visit of work finishes with n 2, and
 * again on its retry (a turn added to that visit's block of the script), so its contract stops it
 */
async function savedLaterVisitStop(request: APIRequestContext, name: string): Promise<void> {
  const dir = writeLoopBundle(2);
  const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]));
  rmSync(dir, { recursive: true, force: true });
  const step = '  step:\n    type: object\n    properties:\n      n: { type: integer }';
  expect(files['skill.md']).toContain(step);
  files['skill.md'] = files['skill.md'].replace(step, `${step.slice(0, -2)}, maximum: 1 }`).replace('name: loop_skill', `name: ${name}`);
  const script = parse(files['model.yaml']) as { turns: { phase: string; finish?: { n: number } }[] };
  const second = script.turns.findIndex((t) => t.phase === 'work' && t.finish?.n === 2);
  script.turns.splice(second + 1, 0, { phase: 'work', finish: { n: 2 } });
  files['model.yaml'] = stringify(script);
  expect((await request.post('/api/skills', { data: { name, from: 'blank' } })).status()).toBe(201);
  const saved = await request.post(`/api/skills/${name}/versions`, { data: { files } });
  expect(saved.status(), await saved.text()).toBe(201);
}

test('a phase stopped on its 2nd visit is named at the same place in the list and on its page', async ({ page, request }) => {
  await savedLaterVisitStop(request, 'loop_later_visit');
  const runId = await ranTo(request, 'loop_later_visit', { n: 0 }, 'failed');
  expect(((await (await request.get(`/api/runs/${runId}`)).json()) as { rerunFrom: string }).rerunFrom).toBe('work#2');

  await page.goto('/runs?skill=loop_later_visit');
  const row = page.getByRole('table', { name: 'Runs' }).getByRole('row').filter({ has: page.getByRole('link', { name: runId }) });
  await expect(row.getByRole('cell').nth(1).locator('code')).toHaveText('work');

  await page.goto(`/runs/${runId}`);
  const takeOn = page.getByRole('region', { name: 'Take it on from the phase it stopped in' });
  await expect(takeOn).toContainText('Phase work (2nd visit) did not finish, though none of its steps failed.');
  await expect(takeOn).not.toContainText('work#2');
  await expect(takeOn.getByRole('button', { name: 'Rerun from here' })).toBeEnabled();
  await shotOf(takeOn, 'test-results/screens/rerun-later-visit.png');
  // the rerun takes on the 2nd visit: its fork point is work#2
  await takeOn.getByRole('button', { name: 'Rerun from here' }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${runId}$`));
  const forkId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  expect(((await (await request.get(`/api/runs/${forkId}`)).json()) as { forkPoint: string | null }).forkPoint).toBe('work#2');
});
