// An error in the diffs of Check against past runs, Replay and Compare: its message and traceback on
// their own lines (not one JSON string of `\n` escapes), and the bundle's files named as the run page
// names them (sanitize.py), never the server's folders (/tmp/…/bundles/<hash>/sanitize.py).
import { expect, test, type Locator } from '@playwright/test';
import { ranThenBrokenSummarize } from './skill-runs';

test.describe.configure({ timeout: 240_000 });

/** the text of every value cell (pre) in `where`, as drawn */
const drawn = async (where: Locator) => (await where.locator('pre').allInnerTexts()).join('\n----\n');

function expectReadable(text: string) {
  expect(text).toContain('KeyError');
  expect(text).toContain('sanitize.py');
  expect(text).not.toContain('/bundles/');
  expect(text).not.toContain('\\n');
  // the traceback's frame on a line of its own
  expect(text).toMatch(/\n\s*File "sanitize\.py", line \d+, in sanitize\n/);
}

test("an error in a diff reads as text on its lines, with the bundle's file names, in Check against past runs, Replay and Compare", async ({ page, request }) => {
  const name = 'err_readable';
  // the postprocessor's python step now raises KeyError
  const runId = await ranThenBrokenSummarize(request, name);

  await page.goto(`/skills/${name}`);
  await page.getByRole('button', { name: 'Check against past runs' }).click();
  const check = page.getByRole('dialog', { name: 'Check against past runs' });
  const changed = check.getByRole('listitem', { name: `Run ${runId} would change` });
  await expect(changed.getByRole('table')).toContainText('KeyError');
  expect(await changed.textContent()).not.toContain('/bundles/');
  expectReadable(await drawn(changed));
  await page.screenshot({ path: 'test-results/screens/diff-error-check.png' });
  await check.getByRole('button', { name: 'Close' }).click();

  await page.goto(`/runs/${runId}`);
  await page.getByRole('button', { name: 'Replay' }).click();
  const result = page.getByRole('region', { name: 'Replay result' });
  await expect(result).toHaveText(/^diverged/);
  const first = result.getByRole('listitem', { name: 'Divergence 1 at __post__/0' });
  await first.locator('details').first().locator('summary').click();
  expectReadable(await drawn(result));
  expect(await result.textContent()).not.toContain('/bundles/');
  await page.screenshot({ path: 'test-results/screens/diff-error-replay.png', fullPage: true });

  const replayId = ((await result.getByRole('link', { name: /^Open the replay run_/ }).textContent()) ?? '').replace('Open the replay ', '');
  await page.goto(`/runs/compare?a=${runId}&b=${replayId}`);
  const comparison = page.getByRole('region', { name: 'Comparison' });
  await expect(comparison).toContainText('__post__/0');
  for (const summary of await comparison.locator('details > summary').all()) await summary.click();
  expectReadable(await drawn(comparison));
  expect(await page.locator('main').innerText()).not.toContain('/bundles/');
  await page.screenshot({ path: 'test-results/screens/diff-error-compare.png', fullPage: true });
});
