// What a new user does in the studio, in a real Chromium against the built app:
// create a skill and type it from nothing, watching its nodes appear; make an
// error and see it as a marker, in Problems and on the diagram; fix it, save,
// restore an older version; run it and land on the completed run. No request
// leaves 127.0.0.1. Screenshots are kept in test-results/screens/.
import { expect, test, type Page } from '@playwright/test';
import { hoverUntilShown } from './monaco';

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: false });

/** every request the page makes must stay on this machine */
function watchRequests(page: Page): string[] {
  const outside: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.hostname !== '127.0.0.1') outside.push(r.url());
  });
  return outside;
}

const editorOf = (page: Page) => page.getByRole('region', { name: 'skill.md editor' });
const diagramOf = (page: Page) => page.getByRole('region', { name: 'Skill diagram' });

/** types text into Monaco line by line, exactly as written (the editor does not re-indent) */
async function typeLines(page: Page, lines: string[]) {
  for (const line of lines) {
    await page.keyboard.type(line);
    await page.keyboard.press('Enter');
  }
}

type MonacoLike = {
  editor: {
    getModels(): { uri: { path: string }; getValue(): string }[];
    getEditors(): { getPosition(): { lineNumber: number; column: number } | null }[];
  };
};

async function editorText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const m = (window as unknown as { monaco?: MonacoLike }).monaco;
    return m?.editor.getModels().find((x) => x.uri.path.endsWith('/skill.md'))?.getValue() ?? '';
  });
}

async function cursorLine(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { monaco?: MonacoLike }).monaco?.editor.getEditors()[0]?.getPosition()?.lineNumber ?? 0);
}

test('a new user writes a skill from nothing, breaks it, fixes it, saves, restores, and runs it', async ({ page }) => {
  // the whole walk (a dozen edits, two saves, a restore, a run) took 60-80 s on a loaded 2-core CI machine and once passed 90 s
  test.setTimeout(180_000);
  const outside = watchRequests(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  await page.goto('/');
  await expect(page.getByRole('link', { name: 'summarize' }).first()).toBeVisible();
  await shot(page, '01-home');

  await page.getByRole('button', { name: 'New skill' }).click();
  await page.getByLabel('Name').fill('greeter');
  await shot(page, '02-new-skill-dialog');
  await page.getByRole('button', { name: /^Create/ }).click();
  await page.waitForURL('**/skills/greeter');
  await expect(page.getByRole('tab', { name: 'skill.md' })).toBeVisible();
  await expect(diagramOf(page).getByRole('group', { name: 'phase answer (entry)', exact: true })).toBeVisible();

  // from nothing
  await editorOf(page).locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  // nothing to draw: the last picture stays, greyed
  await expect(diagramOf(page).getByRole('status')).toContainText('does not parse');
  await shot(page, '03-emptied-skill');
  await typeLines(page, ['---', 'name: greeter', 'description: Writes a greeting', 'entry: greet', 'graph:', '  greet: []']);
  // drawn as soon as it is typed — invalid until the skill says what the phase returns
  await expect(diagramOf(page).getByRole('group', { name: 'phase greet (entry) invalid', exact: true })).toBeVisible();
  await expect(diagramOf(page).getByRole('group', { name: 'phase answer (entry)', exact: true })).toHaveCount(0);
  await typeLines(page, [
    'output_schema:',
    '  type: object',
    '  properties: { greeting: { type: string } }',
    '  required: [greeting]',
  ]);
  await expect(diagramOf(page).getByRole('group', { name: 'phase greet (entry)', exact: true })).toBeVisible();
  await typeLines(page, [
    'postprocessor:',
    '  output_schema: { type: object, required: [greeting, length] }',
    '  steps:',
    '    - { type: node, module: ./count.mjs, function: length, pure: true }',
    '---',
    'You write one-line greetings.',
    '',
    '## greet',
    'Greet the person named in the input.',
  ]);
  expect(await editorText(page)).toContain('  steps:\n    - { type: node, module: ./count.mjs, function: length, pure: true }\n---\n');

  // the module is not in the bundle yet: a marker, a problem, an invalid node
  const step = diagramOf(page).getByRole('group', { name: 'step 0 node invalid', exact: true });
  await expect(step).toBeVisible();
  await expect(diagramOf(page).getByRole('group', { name: 'caller contract', exact: true })).toBeVisible();
  const problem = page.getByRole('list', { name: 'Problems' }).getByRole('listitem').filter({ hasText: 'count.mjs' });
  await expect(problem).toHaveText(/^14:\d+ .*count\.mjs/);
  // not a button (its words must not read as a command), but said to act: its description
  await expect(problem).toHaveAccessibleDescription('Enter or click: move the cursor to it in the editor');
  await expect(editorOf(page).locator('.squiggly-error').first()).toBeVisible();
  await shot(page, '04-error-marked');
  // the problem takes the cursor to it; selecting a node too
  await problem.click();
  await expect.poll(() => cursorLine(page)).toBe(14);
  await diagramOf(page).getByRole('group', { name: 'phase greet (entry)', exact: true }).click();
  await expect.poll(() => cursorLine(page)).toBe(6);

  // fixed: the module is added to the bundle
  await page.getByRole('button', { name: '+ New file' }).click();
  await page.getByLabel('Path').fill('count.mjs');
  await page.getByRole('button', { name: 'Add file' }).click();
  await expect(page.getByRole('tab', { name: 'count.mjs' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('region', { name: 'count.mjs editor' }).locator('.view-lines').click();
  await page.keyboard.type('export function length(v) { return { length: v.greeting.length }; }');
  await page.getByRole('tab', { name: 'skill.md' }).click();
  await expect(diagramOf(page).getByRole('group', { name: 'step 0 node', exact: true })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Problems' }).getByRole('listitem')).toHaveCount(0);
  await shot(page, '05-fixed');

  // a model script for the new phase, then save (version 1)
  await page.getByRole('tab', { name: 'model.yaml' }).click();
  await page.getByRole('region', { name: 'model.yaml editor' }).locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await typeLines(page, ['turns:', '  - phase: greet', '    finish: { greeting: "Hello, Ada!" }']);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const savedV1 = page.getByRole('status').filter({ hasText: /Saved as version/ });
  await expect(savedV1).toBeVisible();
  const v1 = await editorText(page);
  const v1Hash = /version ([0-9a-f]{8})/.exec((await savedV1.textContent()) ?? '')![1];

  // version 2: a different description, saved with Ctrl+S
  await page.getByRole('tab', { name: 'skill.md' }).click();
  await editorOf(page).locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.type(', warmly');
  await page.keyboard.press('Control+S');
  await expect(page.getByRole('status').filter({ hasText: /Saved as version/ })).toBeVisible();
  expect(await editorText(page)).toContain('description: Writes a greeting, warmly');

  // restore version 1 from the version list, after looking at the diff
  await page.getByRole('button', { name: /^Versions/ }).click();
  const versions = page.getByRole('complementary', { name: 'Versions' });
  await expect(versions.getByRole('region', { name: 'Changes' })).toContainText('+description: Writes a greeting, warmly');
  await shot(page, '06-versions-diff');
  const restoreButtons = versions.getByRole('button', { name: /^Restore version/ });
  await restoreButtons.last().click(); // the oldest: the template the skill was created from
  await expect(page.getByRole('status').filter({ hasText: /Restored version/ })).toBeVisible();
  expect(await editorText(page)).toMatch(/^---\nname: greeter\ndescription: Answers a question/);
  await versions.getByRole('button', { name: `Restore version ${v1Hash}` }).click(); // back to version 1
  await expect(page.getByRole('status').filter({ hasText: `Restored version ${v1Hash}` })).toBeVisible();
  expect(await editorText(page)).toBe(v1);
  await versions.getByRole('button', { name: 'Close' }).click();

  // run it: the input goes in, the run page shows it live until it completes
  await page.getByLabel('Input').fill('{ "name": "Ada" }');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForURL(/\/runs\/run_/);
  const status = page.getByRole('region', { name: 'Run status' });
  await expect(status).toContainText('completed', { timeout: 30_000 });
  // the output is shown by the state at the last step, a read of its own after the page (as long as the status's, at load)
  await expect(page.getByLabel("the run's output")).toContainText('"length": 11', { timeout: 30_000 });
  await shot(page, '07-run-completed');

  expect(outside, `requests that left 127.0.0.1: ${outside.join(', ')}`).toEqual([]);
  expect(errors).toEqual([]);
});

test('the diagram keeps the last good picture, greyed, while the YAML does not parse; a draft survives a reload', async ({ page }) => {
  await page.goto('/skills/research_brief');
  const phase = diagramOf(page).getByRole('group', { name: 'phase gather (entry)', exact: true });
  await expect(phase).toBeVisible();
  await expect(diagramOf(page).getByRole('group', { name: /^stage redact on finalize/ }).first()).toBeVisible();
  await editorOf(page).locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.type(': : [');
  await expect(diagramOf(page).getByRole('status')).toContainText('does not parse');
  await expect(phase).toBeVisible();
  await expect(page.getByRole('list', { name: 'Problems' }).getByRole('listitem').first()).toHaveText(/^2:\d+ YAML syntax error/);
  await shot(page, '08-stale-diagram');
  // the note keeps clear of the toolbar: Fit can still be clicked (a trial click fails on a covered target)
  await diagramOf(page).getByRole('button', { name: 'Fit' }).click({ trial: true, timeout: 2000 });
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: /unsaved changes .* are back/ })).toBeVisible();
  expect(await editorText(page)).toContain('name: research_brief: : [');
  await page.getByRole('button', { name: 'Discard them' }).click();
  await expect(diagramOf(page).getByRole('status')).toHaveCount(0);
});

test('a refused capability is drawn refused, naming the missing grant; the cursor and the diagram follow each other', async ({ page, request }) => {
  const base = (await (await request.get('/api/skills/research_brief')).json()).version.files;
  const files = { ...base, 'skill.md': base['skill.md'].replace('effects: [fs.read, prompt.write, tools.gate, transcript.write, artifact.write]', 'effects: [fs.read, prompt.write, tools.gate, artifact.write]') };
  expect((await request.post('/api/skills', { data: { name: 'brief_refused', from: 'research_brief' } })).status()).toBe(201);
  expect((await request.post('/api/skills/brief_refused/versions', { data: { files: { ...files, 'skill.md': files['skill.md'].replace('name: research_brief', 'name: brief_refused') } } })).status()).toBe(201);
  await page.goto('/skills/brief_refused');
  await expect(diagramOf(page).getByRole('group', { name: 'stage result_budget on post-tool refused: transcript.write not granted' }).first()).toBeVisible();
  // clicking a node puts the cursor on its declaration (the `write:` key under `phases:`); the diagram
  // may be drawn before Monaco has made its model, so wait for the text
  await expect.poll(() => editorText(page)).toContain('\nphases:\n');
  const text = await editorText(page);
  const lines = text.split('\n');
  const phasesAt = lines.indexOf('phases:');
  const writeLine = lines.findIndex((l, i) => i > phasesAt && l === '  write:') + 1;
  await diagramOf(page).getByRole('group', { name: 'phase write', exact: true }).click();
  await expect.poll(() => cursorLine(page)).toBe(writeLine);
  // moving the cursor highlights the node it is in
  const gatherCard = diagramOf(page).getByRole('group', { name: 'phase gather (entry)', exact: true }).locator('[data-kind="phase"]');
  await expect(gatherCard).not.toHaveAttribute('data-highlight', /.*/);
  // the editor has the focus (Monaco takes it a frame after the cursor moves)
  await expect(editorOf(page).locator('.native-edit-context')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(gatherCard).toHaveAttribute('data-highlight', 'true');
  await shot(page, '09-refused-stage');
});

test('a skill of 100 phases and 50 steps stays readable: fit, zoom, minimap', async ({ page, request }) => {
  const phases = Array.from({ length: 100 }, (_, i) => `p${i}`);
  const graph = phases.map((p, i) => `  ${p}: [${i + 1 < phases.length ? phases[i + 1] : ''}]`).join('\n');
  const steps = Array.from({ length: 50 }, (_, i) => `    - { type: validate, schema: { type: object }${i % 3 === 1 ? ', on_error: skip' : ''} }`).join('\n');
  const text = `---\nname: big_one\nentry: p0\ngraph:\n${graph}\noutput_schema: { type: object }\npostprocessor:\n  output_schema: { type: object }\n  steps:\n${steps}\n---\nBig.\n`;
  expect((await request.post('/api/skills', { data: { name: 'big_one' } })).status()).toBe(201);
  expect((await request.post('/api/skills/big_one/versions', { data: { files: { 'skill.md': text, 'model.yaml': 'turns: []\n' } } })).status()).toBe(201);
  await page.goto('/skills/big_one');
  await expect(diagramOf(page).getByRole('group', { name: 'phase p0 (entry)', exact: true })).toBeAttached();
  await expect(diagramOf(page).getByRole('group', { name: 'step 49 validate', exact: true })).toBeAttached();
  await expect(diagramOf(page).locator('.react-flow__minimap')).toBeVisible();
  // the first view starts at the entry, readable; Fit shows the whole graph
  await expect(diagramOf(page).getByRole('group', { name: 'phase p0 (entry)', exact: true })).toBeInViewport();
  await shot(page, '10-hundred-phases');
  await diagramOf(page).getByRole('button', { name: 'Fit' }).click();
  await expect(diagramOf(page).getByRole('group', { name: 'step 49 validate', exact: true })).toBeInViewport();
  await shot(page, '11-hundred-phases-fitted');
});

test('the frontmatter gets completion and hover from the JSON Schema, linked to the reference; the split is remembered', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
  });
  await page.goto('/skills/summarize');
  const editor = editorOf(page);
  // Monaco's first paint (its chunks loaded and compiled): past 10 s at load 14, the first studio page of a CI run
  await expect(editor.locator('.view-line').first()).toBeVisible({ timeout: 30_000 });
  // hover on `entry` (line 4): its description, and a link to its section of the reference
  const entryKey = editor.locator('.view-lines span span').filter({ hasText: /^entry$/ }).first();
  const hover = page.locator('.monaco-hover').filter({ hasText: 'skill.md reference' });
  await hoverUntilShown(page, entryKey, hover);
  await expect(hover).toContainText('The phase the run starts in');
  await expect(hover.getByRole('link', { name: /skill\.md reference: entry/ })).toBeVisible();
  await shot(page, '12-hover');
  // completion offers the keys this skill does not have yet
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+Space');
  const suggest = page.locator('.suggest-widget');
  await expect(suggest).toBeVisible();
  await expect(suggest).toContainText('capabilities');
  await shot(page, '13-completion');
  await page.keyboard.press('Escape');
  // the key under the cursor is described under the editor
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('note', { name: 'The key under the cursor' })).toContainText('name — The skill name');
  // the split between editor and diagram: moved with the keyboard, remembered across a reload
  const splitter = page.getByRole('separator', { name: 'Resize the editor and the diagram' });
  await splitter.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
  await expect(splitter).toHaveAttribute('aria-valuenow', '40');
  await page.reload();
  await expect(page.getByRole('separator', { name: 'Resize the editor and the diagram' })).toHaveAttribute('aria-valuenow', '40');
  expect(warnings.filter((w) => /Falling back|Could not create web worker|Missing requestHandler/.test(w))).toEqual([]);
});
