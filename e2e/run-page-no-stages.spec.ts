// The run page of a skill that declares no capability stages (most skills) says nothing of stages but
// one muted line: before, its report had a "Stages 0" card and the timeline a note above the visits on
// every such run, and the state at each step a "Stages 0" fact. A skill with stages keeps both, counted.
import { expect, test, type Page } from '@playwright/test';
import { exampleFiles, ranTo, savedLoopSkill } from './skill-runs';
import { shotOf } from './shots';

test.use({ viewport: { width: 1440, height: 900 } });
test.describe.configure({ timeout: 180_000 });

const stagesCard = (page: Page) => page.getByRole('region', { name: 'Run report' }).locator('dt', { hasText: /^Stages$/ });
const SENTENCE = 'This skill declares no capability stages: its rounds have no rung lanes to fill.';

test('a run of a skill without capability stages has no Stages card or fact and one muted line; one with stages keeps them', async ({ page, request }) => {
  const name = 'no_stages_page';
  const files = exampleFiles('blog_writer', name);
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name, from: 'blog_writer' } })).status());
  const plain = await ranTo(request, name, JSON.parse(files['input.json']) as Record<string, unknown>, 'completed');
  await page.goto(`/runs/${plain}`);
  const report = page.getByRole('region', { name: 'Run report' });
  await expect(report.locator('dt', { hasText: /^Processor steps$/ })).toBeVisible();
  await expect(stagesCard(page)).toHaveCount(0);
  // nor at a step: the state's facts say where the run was, with no Stages among them
  await expect(page.getByLabel('Where the run was').locator('dt', { hasText: /^Steps$/ })).toBeVisible();
  await expect(page.getByLabel('Where the run was').locator('dt', { hasText: /^Stages$/ })).toHaveCount(0);
  const line = page.getByRole('region', { name: 'Timeline' }).getByText(SENTENCE);
  await expect(line).toBeVisible();
  // muted: the page's dim text colour, not the body's
  const [lineColor, bodyColor] = await Promise.all([line.evaluate((e) => getComputedStyle(e).color), report.locator('dd').first().evaluate((e) => getComputedStyle(e).color)]);
  expect(lineColor).not.toBe(bodyColor);
  await shotOf(page.locator('main'), 'test-results/screens/run-page-no-stages.png');

  await savedLoopSkill(request, 'with_stages_page', 2);
  const staged = await ranTo(request, 'with_stages_page', { n: 0 }, 'completed');
  await page.goto(`/runs/${staged}`);
  await expect(stagesCard(page)).toBeVisible();
  await expect(page.getByLabel('Where the run was').locator('dt', { hasText: /^Stages$/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Timeline' }).getByText(SENTENCE)).toHaveCount(0);
  await shotOf(page.locator('main'), 'test-results/screens/run-page-with-stages.png');
});
