// A run taken on from another (Rerun from here, Fork from here) says, item by item, what it reused
// from the recording and what it ran: before, a rerun's postprocessor showed its reused step and the
// one that ran live alike ("0 ms" was the only hint) and Details said "executed" of both. And a
// fork's edited step input is what Details shows the step was handed: before, it showed the
// parent's value beside an output made from the edit.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { exampleFiles, ranTo } from './skill-runs';
import { shotOf } from './shots';

const shot = (page: import('@playwright/test').Page, name: string) => page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });

async function ended(request: APIRequestContext, runId: string, status: string) {
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe(status);
}

async function forked(request: APIRequestContext, runId: string, data: Record<string, unknown>, status = 'completed'): Promise<string> {
  const res = await request.post(`/api/runs/${runId}/fork`, { data });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { runId: string }).runId;
  await ended(request, id, status);
  return id;
}

test('a rerun from the failed step marks what it reused from the recording and what ran live; an edited step input is what Details shows it was handed', async ({ page, request }) => {
  const name = 'blog_forkwalk';
  const files = exampleFiles('blog_writer', name);
  expect((await request.post('/api/skills', { data: { name, from: 'blog_writer' } })).status()).toBe(201);
  const broken = { ...files, 'rendering.py': files['rendering.py'].replace('value["body"]))', 'value["text"]))') };
  expect((await request.post(`/api/skills/${name}/versions`, { data: { files: broken } })).status()).toBe(201);
  const failed = await ranTo(request, name, JSON.parse(files['input.json']) as Record<string, unknown>, 'aborted');
  // fixed, then taken on from the failed step (__post__/1): __post__/0 and the model turns from the recording
  expect((await request.post(`/api/skills/${name}/versions`, { data: { files } })).status()).toBe(201);
  const rerun = await forked(request, failed, {});

  await page.goto(`/runs/${rerun}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const reused = timeline.getByRole('listitem', { name: '__post__/0 python ok' });
  const live = timeline.getByRole('listitem', { name: '__post__/1 python ok' });
  await expect(reused).toContainText('reused from the recording');
  await expect(live).not.toContainText('reused');
  // the two model turns' cards too
  const turns = timeline.getByRole('button').filter({ hasText: 'finished with 2 fields' });
  await expect(turns).toHaveCount(2);
  for (const turn of await turns.all()) await expect(turn).toContainText('reused from the recording');
  const details = page.getByRole('region', { name: 'Details' });
  await reused.getByRole('button').click();
  await expect(details).toContainText(`not run here: reused from the recording (run ${failed}, event `);
  await shot(page, 'fork-what-ran-reused');
  await live.getByRole('button').click();
  await expect(details).toContainText('executed');
  await expect(details).not.toContainText('reused');

  // back on the failed run: its take-on box says a fork from its failed step completed since
  await page.goto(`/runs/${failed}`);
  const takeOn = page.getByRole('region', { name: 'Take it on from the failed step' });
  await expect(takeOn).toContainText('A fork from here has completed since: it is under Replays and forks below.');
  await expect(takeOn.getByRole('button', { name: 'Rerun from here' })).toBeVisible();
  await shotOf(takeOn, 'test-results/screens/fork-what-ran-take-on-done.png');

  // a fork handing __post__/1 another value: its Details' Input is that value, not what __post__/0 left
  const edited = { title: 'T', body: 'One two three.', html_rendered: '<p>One two three.</p>' };
  const fork = await forked(request, rerun, { at: '__post__/1/input', value: edited });
  await page.goto(`/runs/${fork}`);
  await timeline.getByRole('listitem', { name: '__post__/1 python ok' }).getByRole('button').click();
  const part = (title: string) => details.locator('details', { has: page.locator('summary', { hasText: new RegExp(`^${title}$`) }) });
  const input = part('Input');
  await expect(input).toContainText('One two three.');
  await expect(input).not.toContainText('A durable run');
  await expect(part('Output')).toContainText('"word_count": 3');
  await shot(page, 'fork-what-ran-edited-input');
});
