// A step whose error runs to thousands of characters on one line: the run report's sentence and the
// step's card on the timeline show its start, a few lines, and Details shows it whole. Before, the
// report's sentence filled more than a screen above the timeline and the card was many screens tall.
import { expect, test } from '@playwright/test';
import { exampleFiles, ranTo } from './skill-runs';

test.describe.configure({ timeout: 240_000 });

test("a long error's first line is a few lines in the run report and on the step's card, whole in Details", async ({ page, request }) => {
  const name = 'long_error_page';
  expect((await request.post('/api/skills', { data: { name, from: 'summarize' } })).status()).toBe(201);
  const files = exampleFiles('summarize', name);
  files['sanitize.py'] = files['sanitize.py'].replace('    count = 0', '    raise ValueError("cannot sanitize: " + " ".join("reason%d" % i for i in range(900)))\n    count = 0');
  expect((await request.post(`/api/skills/${name}/versions`, { data: { files } })).status()).toBe(201);
  const runId = await ranTo(request, name, { path: 'report.txt' }, 'aborted');

  await page.goto(`/runs/${runId}`);
  const report = page.getByRole('region', { name: 'Run report' });
  const summary = report.locator('p', { hasText: 'cannot sanitize: reason0' }).first();
  await expect(summary).toBeVisible();
  // its text is all there (for search and assistive tech); only its box is cut
  await expect(summary).toContainText('reason899');
  expect((await summary.boundingBox())!.height).toBeLessThan(200);
  await expect(report.getByRole('button', { name: 'full error in Details' })).toBeVisible();

  const step = page.getByRole('region', { name: 'Timeline' }).getByRole('listitem', { name: '__post__/0 python failed' });
  expect((await step.boundingBox())!.height).toBeLessThan(260);
  // whole in Details
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText('reason899');
  await page.screenshot({ path: 'test-results/screens/long-error-clamped.png' });
});
