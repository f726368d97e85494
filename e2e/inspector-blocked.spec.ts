// A blocked run on the run page (research_brief: path_guard denies reading secrets/): it opens on the
// guard that blocked it, as the report names it; the call it denied says it was not run; the guard's
// Details title names it once; Failed only leaves no empty lane and no hidden item selected.
import { expect, test } from '@playwright/test';
import { ranTo, savedExample } from './skill-runs';

test.describe.configure({ timeout: 240_000 });

test('a blocked run opens on the guard that blocked it, its denied call says it did not run; Failed only hides the ok stage from Details and the empty lanes', async ({ page, request }) => {
  const name = 'blocked_brief_page';
  const files = await savedExample(request, 'research_brief', name);
  const runId = await ranTo(request, name, JSON.parse(files['input.json']) as Record<string, unknown>, 'completed');

  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const details = page.getByRole('region', { name: 'Details' });
  await expect(timeline).toContainText('1 failure');
  // it opens on what blocked it: the guard's denial
  const guard = timeline.getByRole('listitem', { name: 'pre-tool path_guard/path_guard ok' });
  await expect(guard).toHaveAttribute('aria-current', 'true');
  // titled with its name once
  await expect(details).toContainText('pre-tool path_guard ok');
  await expect(details).not.toContainText('path_guard/path_guard');

  // the denied call never ran: not "Not recorded yet", as if it were still to come
  const denied = timeline.getByRole('listitem', { name: 'file/read denied' });
  await denied.getByRole('button').click();
  await expect(denied).toHaveAttribute('aria-current', 'true');
  await expect(details).toContainText('Not run: the path_guard stage denied it');
  await expect(details).not.toContainText('Not recorded yet');

  // the guard, chosen again
  await guard.getByRole('button').click();
  await expect(guard).toHaveAttribute('aria-current', 'true');

  // Failed only: the guard is hidden, so it is no longer what Details shows; the denied call is
  await timeline.getByRole('checkbox', { name: 'Failed only' }).check();
  await expect(guard).toHaveCount(0);
  await expect(denied).toHaveAttribute('aria-current', 'true');
  await expect(details).not.toContainText('path_guard ok');
  await expect(details).toContainText('denied');
  // no lane left without an item, no empty model turn column
  const lanes = timeline.getByRole('group', { name: / lane$/ });
  for (const lane of await lanes.all()) await expect(lane.getByRole('listitem')).not.toHaveCount(0);
  await expect(timeline.getByText('model turn', { exact: true })).toBeHidden();
  await expect(timeline.getByText('tool calls', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/inspector-blocked-failed-only.png', fullPage: true });

  // unticked, the lanes come back
  await timeline.getByRole('checkbox', { name: 'Failed only' }).uncheck();
  await expect(guard).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/inspector-blocked.png', fullPage: true });
});
