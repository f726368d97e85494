// The runs list in an 800 px window: the Model column keeps its words whole ("scripted ·" and the
// script's file name, each on one line), where it was squeezed to a few letters a line.
import { expect, test } from '@playwright/test';
import { ranTo, savedLoopSkill } from './skill-runs';

test.describe.configure({ timeout: 120_000 });

test('runs list at 800 px: a scripted model reads in whole words', async ({ page, request }) => {
  await savedLoopSkill(request, 'loop_model_narrow', 1);
  const runId = await ranTo(request, 'loop_model_narrow', { n: 0 }, 'completed');
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto('/runs?skill=loop_model_narrow');
  const row = page.getByRole('table', { name: 'Runs' }).getByRole('row').filter({ has: page.getByRole('link', { name: runId }) });
  const model = row.getByRole('cell').filter({ hasText: /^scripted · / });
  await expect(model).toHaveText('scripted · model.yaml');
  // each word on one line: a word broken across lines has a box per line
  const broken = await model.evaluate((cell) => {
    const text = cell.firstChild as Text;
    const out: string[] = [];
    for (const word of ['scripted', 'model.yaml']) {
      const at = (text.textContent ?? '').indexOf(word);
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      if (range.getClientRects().length !== 1) out.push(word);
    }
    return out;
  });
  expect(broken).toEqual([]);
  await page.screenshot({ path: 'test-results/screens/runs-model-narrow-800.png' });
});
