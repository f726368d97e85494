// More of the studio and the runs pages, in Chromium against the built app: restoring a version
// is one request that records it as restored; Enter on a focused diagram card goes to its
// declaration as a click does; a 1024 px window keeps the diagram clear of its minimap; the runs
// list searches and narrows to what needs attention; a running run's page follows it without a
// reload. Every API answer is checked against its view in the page (STAGECRAFT_CHECK_ANSWERS=1,
// e2e/serve.mjs): a mismatch would be a console error, and none may happen.
import { expect, test, type Page } from '@playwright/test';

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: false });
const diagramOf = (page: Page) => page.getByRole('region', { name: 'Skill diagram' });

/** console errors and page errors of the page, to be none at the end */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

async function cursorLine(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      (window as unknown as { monaco?: { editor: { getEditors(): { getPosition(): { lineNumber: number } | null }[] } } }).monaco?.editor.getEditors()[0]?.getPosition()
        ?.lineNumber ?? 0,
  );
}

async function editorText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const m = (window as unknown as { monaco?: { editor: { getModels(): { uri: { path: string }; getValue(): string }[] } } }).monaco;
    return m?.editor.getModels().find((x) => x.uri.path.endsWith('/skill.md'))?.getValue() ?? '';
  });
}

test('restoring a version is one request, and the version list says it was restored', async ({ page, request }) => {
  const errors = watchErrors(page);
  expect((await request.post('/api/skills', { data: { name: 'restorable', from: 'summarize' } })).status()).toBe(201);
  const first = (await (await request.get('/api/skills/restorable')).json()) as { version: { hash: string; files: Record<string, string> } };
  const edited = { ...first.version.files, 'skill.md': first.version.files['skill.md'].replace(/^description: .*$/m, 'description: The second version') };
  expect((await request.post('/api/skills/restorable/versions', { data: { files: edited } })).status()).toBe(201);

  await page.goto('/skills/restorable');
  await expect.poll(() => editorText(page)).toContain('description: The second version');
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/') && r.method() !== 'GET') calls.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  await page.getByRole('button', { name: /^Versions/ }).click();
  const versions = page.getByRole('complementary', { name: 'Versions' });
  await versions.getByRole('button', { name: `Restore version ${first.version.hash.slice(0, 8)}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Restored version ${first.version.hash.slice(0, 8)}` })).toBeVisible();
  expect(await editorText(page)).toBe(first.version.files['skill.md']);
  expect(calls).toEqual([`POST /api/skills/restorable/versions/${first.version.hash}/restore`]);
  // the restored version is the latest again, and says how it got there
  const row = versions.getByRole('row').filter({ hasText: first.version.hash.slice(0, 8) });
  await expect(row).toContainText('current');
  await expect(row).toContainText('restored');
  await shot(page, '20-restored');
  expect(errors).toEqual([]);
});

test('Enter on a focused diagram card goes to its declaration, as a click does', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/skills/research_brief');
  const card = diagramOf(page).getByRole('group', { name: /^phase gather/ });
  await expect(card).toBeVisible();
  await expect.poll(() => cursorLine(page)).toBe(1);
  await card.focus();
  await page.keyboard.press('Enter');
  // the cursor is on the phase's line of the graph (or its phases entry), and the editor has the focus
  await expect.poll(() => cursorLine(page)).toBeGreaterThan(1);
  const line = await cursorLine(page);
  const text = (await editorText(page)).split('\n')[line - 1];
  expect(text).toMatch(/gather/);
  await shot(page, '21-enter-on-node');
  expect(errors).toEqual([]);
});

test.describe('at 1024 px', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('the diagram keeps clear of its minimap', async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto('/skills/blog_writer');
    const diagram = diagramOf(page);
    await expect(diagram.getByRole('group', { name: /^phase / }).first()).toBeVisible();
    await page.waitForTimeout(500); // the first fit
    await shot(page, '22-studio-1024');
    const minimap = diagram.locator('.react-flow__minimap');
    const box = await diagram.boundingBox();
    const map = (await minimap.isVisible()) ? await minimap.boundingBox() : null;
    if (map && box) {
      // no card lies under the minimap, and the minimap takes at most a sixth of the pane
      expect(map.width * map.height).toBeLessThanOrEqual((box.width * box.height) / 6);
      for (const c of await diagram.locator('.react-flow__node').all()) {
        const b = await c.boundingBox();
        if (!b) continue;
        const overlaps = b.x < map.x + map.width && b.x + b.width > map.x && b.y < map.y + map.height && b.y + b.height > map.y;
        expect(overlaps, `a card under the minimap: ${await c.getAttribute('aria-label')}`).toBe(false);
      }
    }
    expect(errors).toEqual([]);
  });
});

test('the runs list: search narrows to one run, "needs attention" to the runs that do; a running run’s page follows it to its end', async ({ page, request }) => {
  const errors = watchErrors(page);
  const started = (await (await request.post('/api/runs', { data: { skill: 'summarize', input: { path: 'report.txt' } } })).json()) as { runId: string };
  await page.goto(`/runs/${started.runId}`);
  await page.evaluate(() => ((window as unknown as { stillHere?: boolean }).stillHere = true));
  await expect(page.getByRole('region', { name: 'Run status' })).toContainText('completed', { timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere), 'no reload').toBe(true);
  await shot(page, '23-run-followed');

  await page.goto('/runs');
  const runs = page.getByRole('table', { name: 'Runs' });
  await expect(runs.getByRole('link', { name: started.runId })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search runs' }).fill(started.runId.slice(4, 16));
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/q=/);
  await expect(runs.getByRole('row')).toHaveCount(2); // the header and the run
  await expect(runs.getByRole('link', { name: started.runId })).toBeVisible();
  await shot(page, '24-runs-searched');

  // narrowed to this skill: other specs share the app and leave failed runs of their own skills
  await page.goto('/runs?attention=1&skill=summarize');
  await expect(page.getByRole('heading', { name: 'No runs match these filters' })).toBeVisible();
  await shot(page, '25-runs-attention-empty');
  expect(errors).toEqual([]);
});
