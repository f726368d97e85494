// Details titles the selected item with its status once: the badge stands where the title's last word
// said it. Before, a stage read "ok pre-tool path_guard ok" and a failed step "failed __post__/0 python
// failed", the one status said twice.
import { expect, test } from '@playwright/test';
import { ranTo, savedExample } from './skill-runs';

test.describe.configure({ timeout: 240_000 });

test("Details says the selected item's status once, after its name", async ({ page, request }) => {
  const name = 'status_once_brief';
  const files = await savedExample(request, 'research_brief', name);
  const runId = await ranTo(request, name, JSON.parse(files['input.json']) as Record<string, unknown>, 'completed');

  await page.goto(`/runs/${runId}`);
  const details = page.getByRole('region', { name: 'Details' });
  const title = (name: string) => details.locator('p', { has: page.locator('code', { hasText: name }) }).first();
  // the guard that blocked it, selected as the page opens
  await expect(title('pre-tool path_guard')).toHaveText('pre-tool path_guard ok');
  await expect(title('pre-tool path_guard').locator('[data-status="ok"]')).toHaveText('ok');

  // a tool call: its status once too
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await timeline.getByRole('listitem', { name: 'file/read denied' }).getByRole('button').click();
  await expect(title('file/read')).toHaveText(/ file\/read denied$/);
  await expect(title('file/read')).not.toHaveText(/^denied /);

  // a model turn's title does not say its status: its badge goes first, as before
  await timeline.getByText('finished with', { exact: false }).first().click();
  await expect(title('model turn')).toHaveText(/^(ok|finished) \S+ model turn$/);
  await page.screenshot({ path: 'test-results/screens/details-status-once.png', fullPage: true });
});
