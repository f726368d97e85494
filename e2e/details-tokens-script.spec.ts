// A model script's turn spent no tokens: the run report and the timeline say "no model tokens used",
// and Details of the turn said "Tokens: not reported" — as if an endpoint had left its usage out.
// Details now says it as the totals do; an endpoint's turn without usage still reads "not reported"
// (e2e/tokens-not-reported.spec.ts, lib/kernel/turn-usage.test.ts).
import { expect, test } from '@playwright/test';
import { failedTallyRun } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

test("a model script's turn: Details says no model tokens used, as the timeline does", async ({ page, request }) => {
  const runId = await failedTallyRun(request, 'script_tokens');

  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline).toContainText('no model tokens used');
  await timeline.getByRole('button', { name: /finished with 1 field/ }).click();
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText('count/r2/model');
  const tokens = details.locator('dt', { hasText: /^Tokens$/ }).locator('xpath=following-sibling::dd[1]');
  await expect(tokens).toHaveText('no model tokens used');
  await shotOf(details, 'test-results/screens/details-tokens-script.png');
});
