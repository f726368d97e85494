// The runs list and the way back to the source, in Chromium against the built app: filter and
// search `/runs` down to one run (the filters live in the URL, so a reload shows the same); the
// chart of the filtered runs over time; a link to an older version opens the studio read-only at
// its line, with the skill's recent runs and the last run's failed node marked on the diagram; an
// input that breaks the entry contract is refused where it is typed, and no run starts; a 1024 px
// window; and, on a server of its own started with STAGECRAFT_TOKEN, signing in, renaming and
// deleting a skill, and the empty lists. Screenshots go to test-results/screens/.
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ownServer } from './own-server';

// a loaded machine can take many seconds to bring Monaco and React Flow in: wait for them longer
const expect = baseExpect.configure({ timeout: 45_000 });
test.describe.configure({ timeout: 300_000 });

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: false });

/** console errors and page errors (an API answer not matching its view is one), to be none at the end */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) errors.push(m.text());
  });
  return errors;
}

const FIXTURE = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'tally');
/** the tally fixture (its python step fails) as a skill of this name */
const tallyFiles = (name: string) =>
  Object.fromEntries(readdirSync(FIXTURE).map((f) => [f, readFileSync(path.join(FIXTURE, f), 'utf8').replace(/^name: tally$/m, `name: ${name}`)]));
const fixed = (files: Record<string, string>) => ({ ...files, 'total.py': files['total.py'].replace('value["count"]', 'value["counts"]') });

type Run = { runId: string; status: string };

async function ended(request: APIRequestContext, runId: string): Promise<Run> {
  let run: Run = { runId, status: 'running' };
  await expect
    .poll(
      async () => {
        run = (await (await request.get(`/api/runs/${runId}`)).json()) as Run;
        return run.status;
      },
      { timeout: 60_000 },
    )
    .not.toMatch(/^(running|queued)$/);
  return run;
}

async function startRun(request: APIRequestContext, body: Record<string, unknown>): Promise<Run> {
  const started = await request.post('/api/runs', { data: body });
  expect(started.status(), await started.text()).toBe(201);
  return ended(request, ((await started.json()) as { runId: string }).runId);
}

async function saveVersion(request: APIRequestContext, skill: string, files: Record<string, string>): Promise<string> {
  const saved = await request.post(`/api/skills/${skill}/versions`, { data: { files } });
  expect(saved.status(), await saved.text()).toBe(201);
  return ((await saved.json()) as { version: { hash: string } }).version.hash;
}

async function createTally(request: APIRequestContext, name: string): Promise<{ broken: string; files: Record<string, string> }> {
  expect((await request.post('/api/skills', { data: { name } })).status()).toBe(201);
  const files = tallyFiles(name);
  return { broken: await saveVersion(request, name, files), files };
}

type MonacoLike = { editor: { getModels(): { uri: { path: string }; getValue(): string }[]; getEditors(): { getPosition(): { lineNumber: number } | null; getModel(): { uri: { path: string } } | null }[] } };
const cursorLine = (page: Page) => page.evaluate(() => (window as unknown as { monaco?: MonacoLike }).monaco?.editor.getEditors().find((e) => e.getModel()?.uri.path.endsWith('skill.md'))?.getPosition()?.lineNumber ?? 0);
const modelText = (page: Page, suffix: string) =>
  page.evaluate((s) => (window as unknown as { monaco?: MonacoLike }).monaco?.editor.getModels().find((m) => m.uri.path.endsWith(s))?.getValue() ?? '', suffix);

test('filter and search the runs list down to one run; the URL keeps the filters; the chart draws the filtered runs', async ({ page, request }) => {
  const errors = watchErrors(page);
  const { files } = await createTally(request, 'list_tally');
  const failed = await startRun(request, { skill: 'list_tally', input: { path: 'note.txt' } });
  expect(failed.status).toBe('aborted');
  await saveVersion(request, 'list_tally', fixed(files));
  const done = await startRun(request, { skill: 'list_tally', input: { path: 'note.txt' } });
  expect(done.status).toBe('completed');

  await page.goto('/runs');
  const runs = page.getByRole('table', { name: 'Runs' });
  await expect(runs.getByRole('link', { name: done.runId })).toBeVisible();
  const chart = page.getByRole('region', { name: 'Runs over time' });
  await expect(chart.locator('.recharts-wrapper > svg.recharts-surface')).toBeVisible();
  await expect(chart).toContainText(/p50 .* p95/);
  await shot(page, '60-runs-list');

  // skill: the two runs of list_tally
  await page.getByLabel('Skill', { exact: true }).selectOption('list_tally');
  await expect(page).toHaveURL(/[?&]skill=list_tally/);
  await expect(runs.getByRole('row')).toHaveCount(3); // the header and two runs
  await expect(chart).toContainText(/(^|\D)2 runs/);

  // needs attention: the failed one, saying so and where
  // the box is the URL's: it shows checked once the URL says so (check() looks sooner than that)
  await page.getByLabel('Needs attention').click();
  await expect(page).toHaveURL(/attention=1/);
  await expect(page.getByLabel('Needs attention')).toBeChecked();
  await expect(runs.getByRole('row')).toHaveCount(2);
  const row = runs.getByRole('row').filter({ has: page.getByRole('link', { name: failed.runId }) });
  await expect(row).toContainText('aborted');
  await expect(row).toContainText('needs attention');
  await expect(row).toContainText('__post__/0');
  await shot(page, '61-runs-needs-attention');
  await page.getByLabel('Needs attention').click();
  await expect(page).not.toHaveURL(/attention=1/);

  // the failure point, then a status it does not have: nothing matches
  await page.getByLabel('Failed at').selectOption('__post__/0');
  await expect(page).toHaveURL(/failed=__post__%2F0/);
  await expect(runs.getByRole('row')).toHaveCount(2);
  await page.getByLabel('Status').selectOption('completed');
  await expect(page.getByRole('heading', { name: 'No runs match these filters' })).toBeVisible();
  await shot(page, '62-runs-no-match');
  await page.getByRole('link', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/runs$/);

  // the search (debounced: typed, then applied), down to one run
  await page.getByRole('searchbox', { name: 'Search runs' }).fill(done.runId.slice(4));
  await expect(page).toHaveURL(new RegExp(`q=${done.runId.slice(4)}`));
  await expect(runs.getByRole('row')).toHaveCount(2);
  await expect(runs.getByRole('link', { name: done.runId })).toBeVisible();
  await page.getByLabel('Outcome').selectOption('succeeded');
  await page.getByLabel('Started').selectOption('24h');
  await expect(page).toHaveURL(/range=24h/);
  await expect(runs.getByRole('row')).toHaveCount(2);

  // the URL is the list: a reload (or a shared link) shows the same, filters filled in
  const url = page.url();
  await page.goto(url);
  await expect(page.getByRole('searchbox', { name: 'Search runs' })).toHaveValue(done.runId.slice(4));
  await expect(page.getByLabel('Outcome')).toHaveValue('succeeded');
  await expect(runs.getByRole('row')).toHaveCount(2);
  await expect(runs).toHaveAttribute('aria-rowcount', '2');
  // a bar of the chart says what it counts
  await chart.locator('path.recharts-rectangle').last().hover();
  await expect(chart.locator('.recharts-tooltip-wrapper')).toContainText('completed');
  await shot(page, '63-runs-searched-tooltip');

  // a filter value that is not one is named, not silently dropped
  await page.goto('/runs?status=sleeping');
  await expect(page.getByRole('alert').filter({ hasText: 'there is no status “sleeping”' })).toBeVisible();
  expect(errors).toEqual([]);
});

test("back to the source: an older version opens read-only at its line; the studio lists the skill's recent runs and marks the last run's failed step", async ({ page, request }) => {
  const errors = watchErrors(page);
  const { broken, files } = await createTally(request, 'deep_tally');
  const failed = await startRun(request, { skill: 'deep_tally', input: { path: 'note.txt' } });
  expect(failed.status).toBe('aborted');
  // a later version is the latest: the one the run ran is older
  const latest = { ...files, 'skill.md': files['skill.md'].replace(/^description: .*$/m, 'description: The latest, edited') };
  await saveVersion(request, 'deep_tally', latest);
  const line = files['skill.md'].split('\n').findIndex((l) => l.includes('- type: python')) + 1;
  expect(line).toBeGreaterThan(10);

  await page.goto(`/skills/deep_tally?version=${broken}&line=${line}`);
  const banner = page.getByRole('note', { name: 'Read-only version' });
  await expect(banner).toContainText(`Viewing version ${broken.slice(0, 8)} (read-only) — Open latest`);
  await expect.poll(() => cursorLine(page)).toBe(line);
  await expect(page.locator('.stagecraft-source-line')).toBeVisible();
  // the old version's files are models of their own (`deep_tally@<hash>/…`), apart from the latest's
  const oldText = () => modelText(page, `deep_tally@${broken.slice(0, 12)}/skill.md`);
  expect(await oldText()).toBe(files['skill.md']);
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  // typing changes nothing
  await page.keyboard.type('xyz');
  expect(await oldText()).toBe(files['skill.md']);

  // the recent runs, and the failed step drawn failed
  const recent = page.getByRole('list', { name: 'Recent runs' });
  await expect(recent.getByRole('link', { name: failed.runId })).toBeVisible();
  await expect(recent).toContainText('aborted');
  await expect(recent).toContainText('needs attention at __post__/0');
  const diagram = page.getByRole('region', { name: 'Skill diagram' });
  await expect(diagram.getByRole('group', { name: 'step 0 python failed', exact: true })).toBeVisible();
  await shot(page, '64-studio-old-version-read-only');

  // the latest: editable, no banner, its own text; the failure still marked
  await banner.getByRole('link', { name: 'Open latest' }).click();
  await expect(page).toHaveURL(/\/skills\/deep_tally$/);
  await expect(page.getByRole('note', { name: 'Read-only version' })).toHaveCount(0);
  await expect.poll(() => modelText(page, 'deep_tally/skill.md')).toContain('description: The latest, edited');
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeEnabled();
  await expect(diagram.getByRole('group', { name: 'step 0 python failed', exact: true })).toBeVisible();
  await recent.getByRole('link', { name: failed.runId }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${failed.runId}$`));

  // a link that is not right says so, and opens the latest
  await page.goto('/skills/deep_tally?version=ffff0000&line=x');
  await expect(page.getByRole('alert').filter({ hasText: '?line=x: a line is a whole number' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: '?version=ffff0000' })).toBeVisible();
  await expect(page.getByRole('note', { name: 'Read-only version' })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('an input that breaks the entry contract is refused where it is typed, located, and no run starts', async ({ page, request }) => {
  const errors = watchErrors(page);
  const count = async () => ((await (await request.get('/api/runs?skill=blog_writer&limit=500')).json()) as { runs: unknown[] }).runs.length;
  const before = await count();
  await page.goto('/skills/blog_writer');
  await expect(page.getByRole('region', { name: 'Skill diagram' }).getByRole('group', { name: /^phase draft/ })).toBeVisible();
  await page.getByLabel('Input').fill('{\n  "topic": 3\n}');
  const problems = page.getByRole('list', { name: 'Errors in the JSON' });
  await expect(problems.getByRole('listitem').first()).toHaveText(/^2:12 /);
  // what the page asks of the server from the click on: a run started would be a POST /api/runs (or a save before it)
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET') asked.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  // the refusal is the click's own answer: said once the click is handled, with nothing sent and no page left
  await expect(page.getByRole('status').filter({ hasText: 'The input is not right: 2:12' })).toBeVisible();
  expect(asked).toEqual([]);
  await expect(page).toHaveURL(/\/skills\/blog_writer$/);
  await shot(page, '65-input-contract-refused');
  // the server refuses it too, located, when the page is gone round
  const direct = await request.post('/api/runs', { data: { skill: 'blog_writer', input: { topic: 3 } } });
  expect(direct.status()).toBe(422);
  expect(((await direct.json()) as { error: { message: string } }).error.message).toMatch(/entry phase draft: \/topic /);
  expect(await count()).toBe(before);
  expect(errors).toEqual([]);
});

test.describe('at 1024 px', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('the runs list, a run page and the studio fit a narrow window', async ({ page, request }) => {
    const errors = watchErrors(page);
    const run = await startRun(request, { skill: 'summarize', input: { path: 'report.txt' } });
    const noSideScroll = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);

    await page.goto('/runs');
    await expect(page.getByRole('table', { name: 'Runs' }).getByRole('link', { name: run.runId })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Runs over time' }).locator('.recharts-wrapper > svg.recharts-surface')).toBeVisible();
    await noSideScroll();
    await shot(page, '66-runs-1024');

    await page.goto(`/runs/${run.runId}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await noSideScroll();
    await shot(page, '67-run-1024');

    await page.goto('/skills/summarize');
    await expect(page.getByRole('region', { name: 'Skill diagram' }).getByRole('group', { name: /^phase summarize/ })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Recent runs' }).getByRole('link', { name: run.runId })).toBeVisible();
    const editor = await page.getByRole('region', { name: 'skill.md editor' }).boundingBox();
    expect(editor?.width ?? 0).toBeGreaterThan(300);
    await noSideScroll();
    await shot(page, '68-studio-1024');
    expect(errors).toEqual([]);
  });
});

test.describe('a Stagecraft started with a token, from nothing', () => {
  const PORT = Number(process.env.E2E_PORT ?? 3100) + 1;
  const BASE = `http://127.0.0.1:${PORT}`;
  const TOKEN = 'e2e-token-not-secret';
  let server: ChildProcess | null = null;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    server = await ownServer(PORT, { E2E_SERVE_TOKEN: TOKEN }, { ready: '/signin' });
  });
  test.afterAll(() => {
    server?.kill('SIGTERM');
  });

  test('sign in with the token; rename and delete a skill; the empty runs list and the empty skills list', async ({ page, playwright }) => {
    test.setTimeout(180_000);
    const errors = watchErrors(page);
    const api = await playwright.request.newContext({ baseURL: BASE });
    expect((await api.get('/api/skills')).status()).toBe(401);
    const authed = await playwright.request.newContext({ baseURL: BASE, extraHTTPHeaders: { authorization: `Bearer ${TOKEN}` } });

    // a page asks for the token, and goes on to where it was going
    await page.goto(`${BASE}/runs`);
    await expect(page).toHaveURL(/\/signin\?next=%2Fruns/);
    await page.getByLabel('Token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'That token is not right' })).toBeVisible();
    await shot(page, '69-signin-refused');
    await page.getByLabel('Token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${BASE}/runs`);
    // no run yet: how to make one, no filters, no chart
    await expect(page.getByRole('heading', { name: 'No runs yet' })).toBeVisible();
    await expect(page.getByRole('search', { name: 'Filter runs' })).toHaveCount(0);
    await shot(page, '70-runs-empty');

    // rename a skill, then delete it
    await page.goto(`${BASE}/`);
    // no skill has run yet: a newcomer is told where to start (and no skill is named twice on the page)
    await expect(page.getByTestId('first-steps')).toContainText('New here? Each example runs offline');
    const rowOf = (name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
    await rowOf('summarize').getByRole('button', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename summarize' });
    await rename.getByLabel('New name').fill('digest');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect(rowOf('digest')).toBeVisible();
    await expect(rowOf('summarize')).toHaveCount(0);
    expect((await authed.get('/api/skills/digest')).status()).toBe(200);
    await rowOf('digest').getByRole('button', { name: 'Delete' }).click();
    const del = page.getByRole('dialog', { name: 'Delete digest' });
    await shot(page, '71-delete-dialog');
    await del.getByRole('button', { name: 'Delete skill' }).click();
    await expect(rowOf('digest')).toHaveCount(0);
    expect((await authed.get('/api/skills/digest')).status()).toBe(404);

    // every skill gone: the empty list says how to make one
    const { skills } = (await (await authed.get('/api/skills')).json()) as { skills: { name: string }[] };
    for (const s of skills) expect((await authed.delete(`/api/skills/${s.name}`)).status()).toBe(204);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'No skills yet' })).toBeVisible();
    await shot(page, '72-skills-empty');
    await api.dispose();
    await authed.dispose();
    expect(errors).toEqual([]);
  });
});
