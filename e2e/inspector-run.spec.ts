// The run page as the inspector: a failed run opens on its failed step (selected, in view, its error
// in Details) with no click, and one click goes back to its line in the studio; a stage without its
// grant reads amber and names the grant; a running run updates live and becomes the finished page
// with no reload; a run aborted on request says so, apart from an abort by a step; a long run fits
// the width (nothing clipped) and its large value loads only when asked; the page at 1024 px.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { gatedWait, go, workspaceOf } from './run-gate';

// runs and a browser on a loaded machine (2 cores shared with builds) take their time
test.describe.configure({ timeout: 240_000 });

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) errors.push(m.text());
  });
  return errors;
}

const HERE = path.dirname(new URL(import.meta.url).pathname);
function bundle(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = path.join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else out[path.relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

type Run = { runId: string; status: string };

async function ended(request: APIRequestContext, runId: string): Promise<Run> {
  let run: Run = { runId, status: 'running' };
  await expect
    .poll(async () => (run = (await (await request.get(`/api/runs/${runId}`)).json()) as Run).status, { timeout: 60_000 })
    .not.toMatch(/^(running|queued)$/);
  return run;
}

async function skillWith(request: APIRequestContext, name: string, files: Record<string, string>, from = 'blank'): Promise<string> {
  expect((await request.post('/api/skills', { data: { name, from } })).status()).toBe(201);
  const saved = await request.post(`/api/skills/${name}/versions`, { data: { files } });
  expect(saved.status(), await saved.text()).toBe(201);
  return ((await saved.json()) as { version: { hash: string } }).version.hash;
}

async function started(request: APIRequestContext, skill: string, input: Record<string, unknown>): Promise<string> {
  const res = await request.post('/api/runs', { data: { skill, input } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { runId: string }).runId;
}

test('a failed run opens on its failed step, selected and in view, its error in Details; Open in studio lands on its line at that version', async ({ page, request }) => {
  const errors = watchErrors(page);
  const files = bundle(path.join(HERE, 'fixtures', 'tally'));
  files['skill.md'] = files['skill.md'].replace('name: tally\n', 'name: tally_inspect\n');
  const hash = await skillWith(request, 'tally_inspect', files);
  const runId = await started(request, 'tally_inspect', { path: 'note.txt' });
  expect((await ended(request, runId)).status).toBe('aborted');

  await page.goto(`/runs/${runId}`);
  const report = page.getByRole('region', { name: 'Run report' });
  await expect(report).toContainText('aborted');
  await expect(report).toContainText('on_error: fail');
  await expect(report).toContainText('not a user');
  await expect(report.getByRole('link', { name: /^tally_inspect@/ })).toHaveAttribute('href', `/skills/tally_inspect?version=${hash}`);
  // no click: the failed step is the selected item, in view, and Details holds its error with the stack
  const step = page.getByRole('region', { name: 'Timeline' }).getByRole('listitem', { name: '__post__/0 python failed' });
  await expect(step).toHaveAttribute('aria-current', 'true');
  await expect(step).toBeInViewport();
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText('__post__/0 python failed');
  await expect(details.getByRole('group', { name: 'Error' })).toContainText('KeyError');
  await expect(details.getByLabel('Stack')).toHaveCSS('font-family', /mono/i);
  // the error shows once: its stack nowhere else on the page
  await expect(page.getByLabel('Stack')).toHaveCount(1);
  await expect(details).toContainText('executed');
  // the failed step offers Rerun first, primary
  await expect(details.getByRole('button', { name: 'Rerun from here' })).toHaveClass(/btn-primary/);
  await expect(details.getByRole('button', { name: 'Fork from here' })).toBeVisible();
  // the model turns and the steps are in the lists the issue names
  await expect(page.getByRole('list', { name: 'Steps' }).first()).toBeVisible();
  await shot(page, '60-inspector-failed');
  await page.setViewportSize({ width: 1024, height: 800 });
  await expect(step).toBeVisible();
  await shot(page, '61-inspector-failed-1024');

  await details.getByRole('link', { name: 'Open in studio' }).click();
  await page.waitForURL(/\/skills\/tally_inspect\?/, { waitUntil: 'commit' });
  const url = new URL(page.url());
  expect(url.searchParams.get('version')).toBe(hash);
  expect(Number(url.searchParams.get('line'))).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});

test('a stage lacking its grant is refused: amber, naming the grant; Next failure and Failed only move between failures', async ({ page, request }) => {
  const errors = watchErrors(page);
  const files = bundle(path.resolve(HERE, '..', 'examples', 'research_brief'));
  // result_budget asks transcript.write; the skill no longer grants it
  files['skill.md'] = files['skill.md'].replace('effects: [fs.read, prompt.write, tools.gate, transcript.write, artifact.write]', 'effects: [fs.read, prompt.write, tools.gate, artifact.write]');
  await skillWith(request, 'brief_nogrant', files, 'research_brief');
  const runId = await started(request, 'brief_nogrant', JSON.parse(files['input.json']));
  await ended(request, runId);

  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const refused = timeline.getByRole('listitem', { name: 'post-tool result_budget/result_budget refused' });
  await expect(refused).toContainText('missing grant: transcript.write');
  await expect(refused).toHaveCSS('border-left-color', 'rgb(178, 106, 0)');
  // the guard's denial (what blocked it) is what the page opens on
  await expect(page.getByRole('region', { name: 'Run report' })).toContainText('blocked');
  const guard = timeline.getByRole('listitem', { name: 'pre-tool path_guard/path_guard ok' });
  await expect(guard).toHaveAttribute('aria-current', 'true');
  // n walks the failures: the denied call, the refused stage, …
  const seen: string[] = [];
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('n');
    seen.push((await timeline.locator('[aria-current="true"]').getAttribute('aria-label')) ?? '');
  }
  expect(seen).toContain('post-tool result_budget/result_budget refused');
  await timeline.locator('[aria-current="true"]').filter({ hasText: 'missing grant' }).waitFor().catch(() => undefined);
  await refused.getByRole('button').click();
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText('transcript.write');
  await expect(details).toContainText('Missing');
  // a click takes the scrubber to the item's event
  const slider = page.getByRole('slider', { name: 'Step' });
  const lastSeq = await slider.getAttribute('max');
  await expect(slider).not.toHaveValue(String(lastSeq));
  const refusedAt = await slider.inputValue();
  await timeline.getByRole('checkbox', { name: 'Failed only' }).check();
  await expect(timeline.getByRole('listitem', { name: 'prompt-assembly house_style/house_style ok' })).toHaveCount(0);
  await expect(refused).toBeVisible();
  await shot(page, '62-inspector-refused-failed-only');
  await timeline.getByRole('button', { name: 'Next failure' }).click();
  // an ok item chosen, then hidden by Failed only: Details shows the first failure, and Next failure moves on from that one
  await timeline.getByRole('checkbox', { name: 'Failed only' }).uncheck();
  await guard.getByRole('button').click();
  await expect(guard).toHaveAttribute('aria-current', 'true');
  await expect(slider).not.toHaveValue(refusedAt);
  const guardAt = await slider.inputValue();
  await timeline.getByRole('checkbox', { name: 'Failed only' }).check();
  const denied = timeline.getByRole('listitem', { name: 'file/read denied' });
  await expect(denied).toHaveAttribute('aria-current', 'true');
  await timeline.getByRole('button', { name: 'Next failure' }).click();
  await expect(refused).toHaveAttribute('aria-current', 'true');

  // the slider names the event of the item Details shows, and the state under it is that event's: on the
  // page as it opens, Failed only ticked (the denied call replaces the hidden guard: the guard's event,
  // which denied it), then Next failure (the refused stage's event)
  const state = page.getByRole('region', { name: 'State at step' });
  const scrubberAt = async (seq: string) => {
    await expect(slider).toHaveValue(seq);
    await expect(slider).toHaveAttribute('aria-valuetext', `event ${seq} of ${lastSeq}`);
    await expect(state.getByRole('heading', { level: 3 })).toHaveText(`Event ${seq} of ${lastSeq}`);
  };
  await scrubberAt(refusedAt);
  await page.reload();
  await expect(guard).toHaveAttribute('aria-current', 'true');
  await timeline.getByRole('checkbox', { name: 'Failed only' }).check();
  await expect(denied).toHaveAttribute('aria-current', 'true');
  await expect(details).toContainText('Not run: the path_guard stage denied it');
  await scrubberAt(guardAt);
  await state.scrollIntoViewIfNeeded();
  await shot(page, '63-inspector-failed-only-scrubber');
  await timeline.getByRole('button', { name: 'Next failure' }).click();
  await expect(refused).toHaveAttribute('aria-current', 'true');
  await scrubberAt(refusedAt);
  await expect(refused).toHaveAttribute('data-scrubbed', 'true');
  expect(errors).toEqual([]);
});

const SLOW_STEPS = 8;
// each step waits for the test's go (e2e/run-gate.ts), given one step at a time
const slowSkill = (name: string) => ({
  'skill.md': `---\nname: ${name}\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npostprocessor:\n  output_schema: { type: object }\n  steps:\n${Array.from({ length: SLOW_STEPS }, () => '    - { type: node, module: ./wait.mjs, function: wait, timeout_ms: 180000 }').join('\n')}\n---\nGo.\n\n## go\nGo.\n`,
  'wait.mjs': gatedWait,
  'model.yaml': 'turns:\n  - finish: {}\n',
});

test('a running run updates live and becomes the finished page with no reload', async ({ page, request }) => {
  const errors = watchErrors(page);
  await skillWith(request, 'slow_live', slowSkill('slow_live'));
  const runId = await started(request, 'slow_live', {});
  const workspace = await workspaceOf(runId);
  // on a loaded machine the browser can take many seconds to load: the page is read as soon as it is served
  await page.goto(`/runs/${runId}`, { waitUntil: 'domcontentloaded' });
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  const status = page.getByRole('region', { name: 'Run status' });
  await expect(status).toContainText('running');
  const steps = page.getByRole('region', { name: 'Timeline' }).getByRole('list', { name: 'Steps' });
  const outcome = page.getByRole('region', { name: 'Outcome' });
  // steps arrive while it runs, each in its turn: the next one waits for the test's go
  for (let n = 0; n < SLOW_STEPS - 1; n++) {
    go(workspace, n);
    await expect(steps.getByRole('listitem', { name: `__post__/${n} node ok` })).toBeVisible({ timeout: 30_000 });
    await expect(steps.getByRole('listitem')).toHaveCount(n + 1);
    await expect(status).toContainText('running');
    if (n > 0) continue;
    // a step is recorded when it ends: while the next one waits, the page says how long nothing was recorded, ticking
    await expect(outcome).toContainText(/Nothing recorded for \d+ s \(since event \d+\): a step is recorded only when it ends/, { timeout: 30_000 });
    const first = Number((await outcome.textContent())!.match(/for (\d+) s/)![1]);
    await expect(outcome).toContainText(new RegExp(`Nothing recorded for (?!${first} s)\\d+ s`), { timeout: 30_000 });
    await shot(page, '63-inspector-live');
  }
  go(workspace, SLOW_STEPS - 1);
  await expect(status).toContainText('completed', { timeout: 60_000 });
  await expect(steps.getByRole('listitem')).toHaveCount(SLOW_STEPS);
  await expect(page.getByRole('region', { name: 'Run report' })).toContainText('completed');
  await expect(page.getByRole('region', { name: 'Caller artifact' })).toContainText(`"waited": ${SLOW_STEPS}`);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await shot(page, '64-inspector-completed');
  expect(errors).toEqual([]);
});

// A run the app itself is driving, aborted from its page while a code step is in flight (it waits for
// a go that never comes): the step is cut short, and the page turns `aborted` live, saying who asked and why.
test("a run aborted on request while it is driven: its page turns aborted live and says who asked, apart from a step's abort", async ({ page, request }) => {
  const errors = watchErrors(page);
  await skillWith(request, 'slow_abort', slowSkill('slow_abort'));
  const runId = await started(request, 'slow_abort', {});
  // the server's HTML draws Abort disabled: a click before the page hydrates reached no handler and
  // was lost (the run ran on); Playwright's click waits for it to be enabled, as a user sees it grey
  const html = await (await request.get(`/runs/${runId}`)).text();
  expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Abort<\/button>/);
  await page.goto(`/runs/${runId}`, { waitUntil: 'domcontentloaded' });
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
  await page.getByLabel('Abort reason').fill('not needed any more');
  await expect(page.getByRole('region', { name: 'Run status' })).toContainText('running');
  const clicked = Date.now();
  await page.getByRole('button', { name: 'Abort' }).click();
  await expect(page.getByRole('region', { name: 'Run status' })).toContainText('aborted', { timeout: 60_000 });
  // cut short: not when the step in flight timed out (180 s), nor after the seven after it
  expect(Date.now() - clicked).toBeLessThan(30_000);
  const steps = page.getByRole('region', { name: 'Timeline' }).getByRole('list', { name: 'Steps' });
  await expect(steps.getByRole('listitem', { name: `__post__/${SLOW_STEPS - 1} node ok` })).toHaveCount(0);
  const report = page.getByRole('region', { name: 'Run report' });
  await expect(report).toContainText('aborted');
  await expect(report).toContainText("a user's request");
  await expect(report).toContainText('not needed any more');
  await expect(report).not.toContainText('on_error');
  // the request's words once, not again as a block reason
  await expect(report).not.toContainText('Block reason');
  // the step in flight is named, with how long it had run: a step is recorded only when it ends
  await expect(report).toContainText(/Cut short\s*step __post__\/0 had run \d+(\.\d)? s when the abort came/);
  const body = await (await request.get(`/api/runs/${runId}`)).json();
  expect(body.error.cutShort).toMatchObject({ position: '__post__/0', kind: 'processor' });
  await shot(page, '65-inspector-aborted-on-request');
  expect(errors).toEqual([]);
});

test('a long run fits the width, nothing clipped; a large value loads only when asked', async ({ page, request }) => {
  const errors = watchErrors(page);
  const files = bundle(path.resolve(HERE, '..', 'examples', 'research_brief'));
  const ROUNDS = 24;
  files['notes/big.txt'] = 'A long appendix line of the reading pilot. '.repeat(6000);
  files['skill.md'] = files['skill.md'].replace('max_rounds: 4', `max_rounds: ${ROUNDS + 2}`).replace('with: { max_chars: 400 }', 'with: { max_chars: 400000 }');
  const turns = Array.from({ length: ROUNDS }, (_, i) => `  - phase: gather\n    text: Reading note ${i + 1} again, to be sure of round ${i + 1}.\n    tool_calls:\n      - { op: file/read, args: { path: ${i === 3 ? 'notes/big.txt' : 'notes/pilot.txt'} } }\n`).join('');
  files['model.yaml'] = files['model.yaml'].replace('turns:\n', `turns:\n${turns}`);
  await skillWith(request, 'brief_long', files, 'research_brief');
  const runId = await started(request, 'brief_long', JSON.parse(files['input.json']));
  await ended(request, runId);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByRole('group', { name: /^Round \d+$/ })).toHaveCount(ROUNDS + 3); // and the example's own: a round of three reads, its finish, the write phase
  // nothing clipped: no item is wider than what shows it, and the timeline does not overflow the page
  const clipped = await timeline.evaluate((el) => {
    const out: string[] = [];
    if (el.scrollWidth > el.clientWidth + 1) out.push(`timeline ${el.scrollWidth} > ${el.clientWidth}`);
    for (const li of el.querySelectorAll('li')) if (li.scrollWidth > li.clientWidth + 1) out.push(li.getAttribute('aria-label') ?? '?');
    return out;
  });
  expect(clipped).toEqual([]);
  await shot(page, '66-inspector-long-run');

  // the round that read the big note: its tool call's outcome comes as a preview, whole on request
  await timeline.getByRole('group', { name: 'Round 4' }).getByRole('listitem', { name: 'file/read ok' }).getByRole('button').click();
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details.getByRole('button', { name: 'Show all' }).first()).toBeVisible();
  await expect(details).toContainText('shown in part');
  const folded = await details.getByRole('button', { name: 'Show all' }).count();
  await details.getByRole('button', { name: 'Show all' }).first().click();
  await expect(details.getByRole('button', { name: 'Show all' })).toHaveCount(folded - 1, { timeout: 15_000 });
  await expect(details).toContainText('A long appendix line of the reading pilot. A long appendix line');
  await shot(page, '67-inspector-large-value');
  await page.setViewportSize({ width: 1024, height: 800 });
  await shot(page, '68-inspector-long-run-1024');
  expect(errors).toEqual([]);
});
