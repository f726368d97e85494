// A run that failed at its postprocessor's validate step, then rerun from there after the fix: State at
// step, at the failure, says the chain's value is what the failed step was handed (before, "after
// __post__/2" over what __post__/1 left); compare says B's validate passed (before, B's value read
// `null` beside A's error, as if the step made nothing).
import { expect, test, type APIRequestContext } from '@playwright/test';
import { exampleFiles, ranTo } from './skill-runs';
import { shotOf } from './shots';

async function ended(request: APIRequestContext, runId: string, status: string) {
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe(status);
}

test.use({ viewport: { width: 1400, height: 900 } });

test("a failed validate step: the scrubber says the value is what it was handed; compare says the rerun's passed", async ({ page, request }) => {
  const name = 'blog_validate_words';
  const files = exampleFiles('blog_writer', name);
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name, from: 'blog_writer' } })).status());
  // the validate step (__post__/2) asks for more words than the post has
  const md = files['skill.md'];
  const at = md.lastIndexOf('word_count: { type: integer, minimum: 1 }');
  const strict = { ...files, 'skill.md': `${md.slice(0, at)}word_count: { type: integer, minimum: 100000 }${md.slice(at + 'word_count: { type: integer, minimum: 1 }'.length)}` };
  expect((await request.post(`/api/skills/${name}/versions`, { data: { files: strict } })).status()).toBe(201);
  const failed = await ranTo(request, name, JSON.parse(files['input.json']) as Record<string, unknown>, 'aborted');

  await page.goto(`/runs/${failed}`);
  const slider = page.getByRole('slider', { name: 'Step' });
  const state = page.getByRole('region', { name: 'State at step' });
  await expect(slider).toBeEnabled();
  const log = (await (await request.get(`/api/runs/${failed}/events`)).json()) as { events: { seq: number; type: string }[] };
  await slider.fill(String(log.events[log.events.length - 1].seq));
  await expect(state).toContainText('Processor chain __post__');
  await expect(state).toContainText('before __post__/2 (it failed): the value it was handed');
  await expect(state).not.toContainText('after __post__/2');
  await shotOf(state, 'test-results/screens/validate-failed-state.png');

  // fixed, and rerun from the failed step
  expect((await request.post(`/api/skills/${name}/versions`, { data: { files } })).status()).toBe(201);
  const res = await request.post(`/api/runs/${failed}/fork`, { data: {} });
  expect(res.status(), await res.text()).toBe(201);
  const rerun = ((await res.json()) as { runId: string }).runId;
  await ended(request, rerun, 'completed');

  await page.goto(`/runs/compare?a=${failed}&b=${rerun}`);
  const comparison = page.getByRole('region', { name: 'Comparison' });
  const item = comparison.getByRole('listitem', { name: 'Divergence 1 at __post__/2' });
  await expect(item).toContainText('status changed');
  await expect(item).toContainText('passed — validate records no output');
  await expect(item.getByRole('table', { name: 'Structural diff at __post__/2' })).toHaveCount(0);
  await item.getByText('Both values, whole').click();
  await expect(item.locator('pre').filter({ hasText: /^null$/ })).toHaveCount(0);
  await shotOf(item, 'test-results/screens/validate-failed-compare.png');
});
