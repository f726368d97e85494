// The studio's Recent runs said of a completed run its path_guard stage blocked only "needs attention",
// with nothing saying why (a failed one says where: "needs attention at __post__/0"); the runs list and
// the home page say "blocked". It now says "needs attention (blocked)".
import { expect, test } from '@playwright/test';
import { ranTo, savedExample } from './skill-runs';
import { shotOf } from './shots';

test('a blocked run in the studio’s Recent runs says it is blocked', async ({ page, request }) => {
  const name = 'recent_blocked_brief';
  const files = await savedExample(request, 'research_brief', name);
  const runId = await ranTo(request, name, JSON.parse(files['input.json']) as Record<string, unknown>, 'completed');
  await page.goto(`/skills/${name}`);
  const item = page.getByRole('list', { name: 'Recent runs' }).getByRole('listitem').filter({ has: page.getByRole('link', { name: runId }) });
  await expect(item).toContainText('needs attention (blocked)');
  await shotOf(page.getByRole('region', { name: 'Recent runs' }), 'test-results/screens/studio-recent-blocked.png');
});
