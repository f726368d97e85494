// Before the page hydrates, a button whose click works only through a React handler is drawn
// disabled (components/common/use-hydrated.ts): on the server's HTML such a click reached no handler
// and was lost — the run page's Abort looked pressed and the run ran on. Each page's HTML, as the
// server sends it, is read here: its buttons are disabled, but for a GET form's submit, which works
// without a script and is left enabled. Then, hydrated, they are enabled (Playwright's click waits
// for that, as a user sees them grey until they work).
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { failedTallyRun } from './skill-runs';

test.describe.configure({ timeout: 180_000 });

type Control = { name: string; disabled: boolean };

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

async function htmlOf(request: APIRequestContext, url: string): Promise<string> {
  const res = await request.get(url);
  expect(res.status(), url).toBe(200);
  return res.text();
}

/** the buttons of a page's HTML: each named by its aria-label, else its text, and whether it is disabled */
async function buttonsOf(request: APIRequestContext, url: string): Promise<Control[]> {
  const html = await htmlOf(request, url);
  return [...html.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].map(([, attrs, inner]) => ({
    name: /aria-label="([^"]*)"/.exec(attrs)?.[1] ?? text(inner),
    disabled: /\sdisabled=""/.test(attrs),
  }));
}

/** The page's scripts held back until the returned function is called: what a user does before it hydrates. */
async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/_next\/static\/.*\.js/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

const enabledOnes = (controls: Control[]) => controls.filter((c) => !c.disabled).map((c) => c.name);
const names = (controls: Control[]) => controls.map((c) => c.name);

test("the run page's server HTML draws every button disabled: fork, rerun, replay, compare, export, the timeline's", async ({ page, request }) => {
  const runId = await failedTallyRun(request, 'hyd_tally_run');
  const buttons = await buttonsOf(request, `/runs/${runId}`);
  expect(names(buttons)).toEqual(expect.arrayContaining(['Replay', 'Compare', 'Export', 'Rerun from here', 'Fork from here', 'Zoom in', 'Fit', 'First step', 'full error in Details']));
  expect(enabledOnes(buttons)).toEqual([]);
  // hydrated, they work: Fork from here opens its dialog
  await page.goto(`/runs/${runId}`, { waitUntil: 'domcontentloaded' });
  await expect(page.getByRole('button', { name: 'Compare' })).toBeEnabled();
  await page.getByRole('button', { name: 'Fork from here' }).first().click();
  await expect(page.getByRole('dialog', { name: 'Fork from here' })).toBeVisible();
});

test("the studio's server HTML draws Run, Save, Versions, Check against past runs, the file tabs and New file disabled", async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'hyd_studio', from: 'summarize' } })).status()).toBe(201);
  const buttons = await buttonsOf(request, '/skills/hyd_studio');
  expect(names(buttons)).toEqual(expect.arrayContaining(['Run', 'Save', 'Check against past runs', 'skill.md', '+ New file']));
  expect(names(buttons).some((n) => /^Versions \(\d+\)$/.test(n))).toBe(true);
  expect(enabledOnes(buttons)).toEqual([]);
  // the run's input and model too: typed into the server's HTML, the input was put back to its first
  // value once the page hydrated, and Run took that
  const html = await htmlOf(request, '/skills/hyd_studio');
  expect(html).toMatch(/<textarea[^>]*id="run-input"[^>]*\sdisabled=""/);
  expect(html).toMatch(/<select[^>]*id="run-model"[^>]*\sdisabled=""/);
  // an older version, read-only: Restore this version too
  const first = (await (await request.get('/api/skills/hyd_studio')).json()) as { version: { hash: string; files: Record<string, string> } };
  const files = { ...first.version.files, 'notes.txt': 'a second version\n' };
  expect((await request.post('/api/skills/hyd_studio/versions', { data: { files } })).status()).toBe(201);
  const older = await buttonsOf(request, `/skills/hyd_studio?version=${first.version.hash}`);
  expect(names(older)).toContain('Restore this version');
  expect(enabledOnes(older)).toEqual([]);
  await page.goto('/skills/hyd_studio', { waitUntil: 'domcontentloaded' });
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await expect(page.getByRole('tab', { name: 'skill.md' })).toBeEnabled();
});

test("the home page's New skill, Rename and Delete are disabled in the server's HTML; the runs page's Import too, not its filter form's submit", async ({ page, request }) => {
  await failedTallyRun(request, 'hyd_tally_list');
  const home = await buttonsOf(request, '/');
  expect(names(home)).toEqual(expect.arrayContaining(['New skill', 'Rename', 'Delete']));
  expect(enabledOnes(home)).toEqual([]);
  // the filters are a GET form to /runs: its submit works before any script, and stays enabled
  const runs = await buttonsOf(request, '/runs');
  expect(names(runs)).toEqual(expect.arrayContaining(['Import', 'Filter']));
  expect(enabledOnes(runs)).toEqual(['Filter']);
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await page.getByRole('button', { name: 'New skill' }).click();
  await expect(page.getByRole('dialog', { name: 'New skill' })).toBeVisible();
});

test('a search typed into the runs filter before the page hydrated is the one Enter applies after it', async ({ page, request }) => {
  const runId = await failedTallyRun(request, 'hyd_tally_typed');
  // the page's scripts held back: the search is typed into the server's HTML
  const release = await holdScripts(page);
  await page.goto('/runs', { waitUntil: 'domcontentloaded' });
  await page.getByLabel('Search runs').fill(runId);
  release();
  // hydrated (Import is enabled then), the box still shows the search: Enter applies it
  await expect(page.getByRole('button', { name: 'Import' })).toBeEnabled();
  await expect(page.getByLabel('Search runs')).toHaveValue(runId);
  await page.getByLabel('Search runs').press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]q=${runId}`));
  await expect(page.getByRole('link', { name: runId })).toBeVisible();
});

test('a runs filter chosen before the page hydrated is kept when another filter changes after it', async ({ page, request }) => {
  await failedTallyRun(request, 'hyd_tally_chosen');
  const release = await holdScripts(page);
  await page.goto('/runs', { waitUntil: 'domcontentloaded' });
  // chosen in the server's HTML: no handler heard it
  await page.getByLabel('Status').selectOption('failed');
  release();
  await expect(page.getByRole('button', { name: 'Import' })).toBeEnabled();
  await expect(page.getByLabel('Status')).toHaveValue('failed');
  // the next change applies what the form shows, the status with it
  await page.getByLabel('Needs attention').check();
  await expect(page).toHaveURL(/[?&]attention=1/);
  await expect(page).toHaveURL(/[?&]status=failed/);
  await expect(page.getByLabel('Status')).toHaveValue('failed');
});

test("before the run page hydrates, its timeline items and the report's ways to a step show a waiting pointer, not a clickable one", async ({ page, request }) => {
  const runId = await failedTallyRun(request, 'hyd_tally_cursor');
  const release = await holdScripts(page);
  await page.goto(`/runs/${runId}`, { waitUntil: 'domcontentloaded' });
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const item = timeline.getByRole('listitem').getByRole('button').first();
  const report = page.getByRole('region', { name: 'Run report' }).getByRole('button').first();
  const cursors = async () => [await item.evaluate((el) => getComputedStyle(el).cursor), await report.evaluate((el) => getComputedStyle(el).cursor)];
  expect(await cursors()).toEqual(['progress', 'progress']);
  release();
  await expect(page.getByRole('button', { name: 'Compare' })).toBeEnabled();
  await expect.poll(cursors).toEqual(['pointer', 'pointer']);
});
