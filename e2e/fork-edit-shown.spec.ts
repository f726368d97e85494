// A fork's edited value is shown where the user looks for it: State at step, at the fork point, says
// the chain's value is the step's input edited at the fork (before, it read "after __post__/0", the
// step before's, though the value shown was the edit); compare has a row for the edited input, A's
// value beside B's (before, it named the lineage and had no row for it); and the fork dialog names a
// JSON error's location once (before: "4:3 not valid JSON: … in JSON at position 42 (line 4 column 3)").
import { expect, test, type APIRequestContext } from '@playwright/test';
import { exampleFiles, ranTo } from './skill-runs';
import { shotOf } from './shots';

const shot = (page: import('@playwright/test').Page, name: string) => page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });

async function ended(request: APIRequestContext, runId: string, status: string) {
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe(status);
}

const edited = { title: 'T', body: 'One two three.', html_rendered: '<p>One two three.</p>' };

async function parentAndFork(request: APIRequestContext): Promise<{ parent: string; fork: string }> {
  const name = 'blog_fork_edit_shown';
  const files = exampleFiles('blog_writer', name);
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name, from: 'blog_writer' } })).status());
  const parent = await ranTo(request, name, JSON.parse(files['input.json']) as Record<string, unknown>, 'completed');
  const res = await request.post(`/api/runs/${parent}/fork`, { data: { at: '__post__/1/input', value: edited } });
  expect(res.status(), await res.text()).toBe(201);
  const fork = ((await res.json()) as { runId: string }).runId;
  await ended(request, fork, 'completed');
  return { parent, fork };
}

test.use({ viewport: { width: 1400, height: 900 } });

test("at a fork's point, State at step says the chain's value is the step's input edited at the fork; compare has a row for it, A's value beside B's", async ({ page, request }) => {
  const { parent, fork } = await parentAndFork(request);
  const log = (await (await request.get(`/api/runs/${fork}/events`)).json()) as { events: { seq: number; type: string }[] };
  const marker = log.events.find((e) => e.type === 'fork_point_reached')!;

  await page.goto(`/runs/${fork}`);
  const slider = page.getByRole('slider', { name: 'Step' });
  const state = page.getByRole('region', { name: 'State at step' });
  await expect(slider).toBeEnabled();
  await slider.fill(String(marker.seq));
  await expect(state).toContainText('fork_point_reached');
  await expect(state).toContainText("the input of __post__/1, edited at the fork point — the fork's value, in place of what __post__/0 left");
  // the label says where the value came from; it is not a change of the state
  await expect(state.getByRole('list', { name: 'Changes at step' })).not.toContainText('editedAt');
  await state.scrollIntoViewIfNeeded();
  await shot(page, 'fork-edit-shown-state');
  // the step before the point: what __post__/0 left, as before
  await slider.fill(String(marker.seq - 1));
  await expect(state).not.toContainText('edited at the fork point');

  await page.goto(`/runs/compare?a=${parent}&b=${fork}`);
  const comparison = page.getByRole('region', { name: 'Comparison' });
  await expect(comparison).toContainText('B is a fork of A, from __post__/1/input with the value there edited');
  const row = comparison.getByRole('row', { name: "__post__/1/input: input, edited at the fork: B's value is the fork's edit, A's what A recorded there" });
  await expect(row).toContainText('edited at the fork (B)');
  await expect(row.getByRole('cell').nth(2)).toContainText('One two three.');
  await expect(row.getByRole('cell').nth(1)).toContainText('Durable runs, plainly');
  await shotOf(comparison, 'test-results/screens/fork-edit-shown-compare.png');
});

test('the fork dialog names a JSON error where it is, once', async ({ page, request }) => {
  const { parent } = await parentAndFork(request);
  await page.goto(`/runs/${parent}`);
  await page.getByRole('button', { name: 'Fork from here' }).click();
  const dialog = page.getByRole('dialog', { name: 'Fork from here' });
  const value = dialog.getByLabel(/^Value at __post__/);
  await value.fill('{\n  "title": "T",\n  "body": "B"\n  "x": 1\n}');
  const problems = dialog.getByRole('list', { name: 'Errors in the value' });
  await expect(problems).toContainText(/^4:3 not valid JSON/);
  const text = (await problems.textContent()) ?? '';
  expect(text).not.toMatch(/position \d+|line \d+|column \d+/);
  await shotOf(dialog, 'test-results/screens/fork-edit-shown-json-error.png');
});
