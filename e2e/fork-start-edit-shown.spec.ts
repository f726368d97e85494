// A fork's edit of a value flowing in at a start is shown where the user looks for it, as a step's
// edited input is (fork-edit-shown.spec): State at step at a fork of __post__ with an edited finish
// says the postprocessor chain holds the edit until __post__/0 ran (before, the state had no chain
// there); at a fork of a phase's input, the transcript's input says it is the edit (before, no word of
// it); and compare of a fork of the run input has the row for the edited input.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { exampleFiles, ranTo } from './skill-runs';
import { shotOf } from './shots';

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });

async function ended(request: APIRequestContext, runId: string, status: string) {
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe(status);
}

const name = 'blog_fork_start_edit';

async function parentRun(request: APIRequestContext): Promise<string> {
  const files = exampleFiles('blog_writer', name);
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name, from: 'blog_writer' } })).status());
  return ranTo(request, name, JSON.parse(files['input.json']) as Record<string, unknown>, 'completed');
}

async function forked(request: APIRequestContext, parent: string, at: string, value: Record<string, unknown>): Promise<string> {
  const res = await request.post(`/api/runs/${parent}/fork`, { data: { at, value } });
  expect(res.status(), await res.text()).toBe(201);
  const fork = ((await res.json()) as { runId: string }).runId;
  await ended(request, fork, 'completed');
  return fork;
}

async function seqOf(request: APIRequestContext, runId: string, match: (e: { type: string; data: Record<string, unknown> }) => boolean): Promise<number> {
  const log = (await (await request.get(`/api/runs/${runId}/events`)).json()) as { events: { seq: number; type: string; data: Record<string, unknown> }[] };
  return log.events.find(match)!.seq;
}

async function stateAt(page: Page, runId: string, seq: number) {
  await page.goto(`/runs/${runId}`);
  const slider = page.getByRole('slider', { name: 'Step' });
  await expect(slider).toBeEnabled();
  await slider.fill(String(seq));
  const state = page.getByRole('region', { name: 'State at step' });
  await expect(state).toHaveAttribute('data-seq', String(seq));
  return state;
}

test.use({ viewport: { width: 1400, height: 900 } });

test('a fork of __post__ with an edited finish: until __post__/0 ran, the postprocessor chain holds the edit, said so', async ({ page, request }) => {
  const parent = await parentRun(request);
  const fork = await forked(request, parent, '__post__', { title: 'T', body: 'One two three.' });
  const marker = await seqOf(request, fork, (e) => e.type === 'fork_point_reached');
  const step0 = await seqOf(request, fork, (e) => e.type === 'step_completed' && e.data.position === '__post__/0');
  const words = "the input of __post__ (the finish artifact), edited at the fork point — the fork's value, in place of what phase review left";

  const state = await stateAt(page, fork, step0 - 1);
  await expect(state).toContainText('Processor chain __post__');
  await expect(state).toContainText(words);
  await expect(state.getByRole('list', { name: 'Changes at step' })).not.toContainText('editedOver');
  await state.scrollIntoViewIfNeeded();
  await shot(page, 'fork-start-edit-finish');
  const slider = page.getByRole('slider', { name: 'Step' });
  await slider.fill(String(marker));
  await expect(state).toContainText(words);
  // once __post__/0 ran: what it left, as before; before the point: no chain, as before
  await slider.fill(String(step0));
  await expect(state).toContainText('after __post__/0');
  await expect(state).not.toContainText('edited at the fork point');
  await slider.fill(String(marker - 1));
  await expect(state).not.toContainText('Processor chain');
});

test("a fork of a phase's input: the transcript's input says it is the phase's input edited at the fork point", async ({ page, request }) => {
  const parent = await parentRun(request);
  const fork = await forked(request, parent, 'review', { title: 'Edited', body: 'An edited draft.' });
  const model = await seqOf(request, fork, (e) => e.type === 'step_completed' && e.data.position === 'review/r1/model');

  const state = await stateAt(page, fork, model);
  const input = state.getByRole('listitem', { name: 'user message review/m1' });
  await expect(input).toContainText("the input of phase review, edited at the fork point — the fork's value, in place of what phase draft left");
  await expect(input).toContainText('An edited draft.');
  await expect(state.getByRole('listitem', { name: 'system message review/m0' })).not.toContainText('edited at the fork point');
  await input.scrollIntoViewIfNeeded();
  await shot(page, 'fork-start-edit-phase-input');
  // the parent's own transcript: no such words
  const own = await seqOf(request, parent, (e) => e.type === 'step_completed' && e.data.position === 'review/r1/model');
  await expect(await stateAt(page, parent, own)).not.toContainText('edited at the fork point');
});

test("compare of a fork of the run input: a row for the edited input, A's value beside B's", async ({ page, request }) => {
  const parent = await parentRun(request);
  const fork = await forked(request, parent, 'input', { topic: 'edited topic', audience: 'developers' });
  await page.goto(`/runs/compare?a=${parent}&b=${fork}`);
  const comparison = page.getByRole('region', { name: 'Comparison' });
  const row = comparison.getByRole('row', { name: "input: input, edited at the fork: B's value is the fork's edit, A's what A recorded there" });
  await expect(row).toContainText('edited at the fork (B)');
  await expect(row.getByRole('cell').nth(1)).toContainText('durable execution');
  await expect(row.getByRole('cell').nth(2)).toContainText('edited topic');
  await shotOf(comparison, 'test-results/screens/fork-start-edit-compare-input.png');
});
