// The scrubber on a completed run's page, in Chromium against the built app: it opens at the last
// event; Home and `Previous step` go back (to before the first event: no transcript, no phase), End
// and `Next step` come back; ←/→ step on the slider and on the buttons; an event's changes are
// listed; a large value shows its preview until `Show all` fetches it whole; at 1024 px it still
// fits. Every state comes from the server's fold (GET /api/runs/<id>/state).
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

// each test makes a run and walks it step by step, a request per step: a loaded machine needs more than the default
test.describe.configure({ timeout: 300_000 });

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) errors.push(m.text());
  });
  return errors;
}

async function completedRun(request: APIRequestContext, skill: string, input: Record<string, unknown>): Promise<{ runId: string; eventCount: number }> {
  const made = await request.post('/api/skills', { data: { name: skill, from: 'summarize' } });
  expect([201, 409]).toContain(made.status());
  const started = await request.post('/api/runs', { data: { skill, input } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  let run = { status: 'running', eventCount: 0 };
  await expect
    .poll(async () => (run = (await (await request.get(`/api/runs/${runId}`)).json()) as typeof run).status, { timeout: 60_000 })
    .toBe('completed');
  return { runId, eventCount: run.eventCount };
}

const heading = (state: ReturnType<Page['getByRole']>) => state.getByRole('heading', { level: 3 });

test('scrub a completed run to the first event and back to the last: the state changes; ←/→ step', async ({ page, request }) => {
  const errors = watchErrors(page);
  const { runId, eventCount: n } = await completedRun(request, 'scrub_sum', { path: 'report.txt' });
  expect(n).toBeGreaterThan(5);

  await page.goto(`/runs/${runId}`);
  const slider = page.getByRole('slider', { name: 'Step' });
  const state = page.getByRole('region', { name: 'State at step' });
  // it opens at the last event: the run completed, its output there
  await expect(slider).toHaveValue(String(n));
  await expect(heading(state)).toHaveText(`Event ${n} of ${n}`);
  await expect(state).toContainText('run_completed');
  await expect(state.getByRole('term').filter({ hasText: 'Status' }).locator('xpath=..')).toContainText('completed');
  await expect(state.getByRole('heading', { name: 'Output' })).toBeVisible();
  await state.scrollIntoViewIfNeeded();
  await shot(page, '70-scrub-last');

  // Home on the slider: before the first event — nothing yet
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(slider).toHaveValue('0');
  await expect(heading(state)).toHaveText(`Before the first event (0 of ${n})`);
  await expect(state).toContainText('No messages yet.');
  await expect(state.getByRole('list', { name: 'Transcript' })).toHaveCount(0);
  await expect(state.getByRole('term').filter({ hasText: 'Phase' }).locator('xpath=..')).toContainText('—');
  await expect(page.getByRole('button', { name: 'Previous step' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'First step' })).toBeDisabled();
  await shot(page, '71-scrub-first');

  // → on the slider: event 1, the run started, and what it changed
  await page.keyboard.press('ArrowRight');
  await expect(heading(state)).toHaveText(`Event 1 of ${n}`);
  await expect(state).toContainText('run_started');
  await expect(state.getByRole('list', { name: 'Changes at step' })).toContainText('/resume');

  // Next step, on and on, until the transcript has messages and a phase is current
  const next = page.getByRole('button', { name: 'Next step' });
  let k = 1;
  while ((await state.getByRole('list', { name: 'Transcript' }).count()) === 0 && k < n) {
    await next.click();
    k++;
    await expect(heading(state)).toHaveText(`Event ${k} of ${n}`);
  }
  expect(k).toBeLessThan(n);
  await expect(state.getByRole('list', { name: 'Transcript' }).getByRole('listitem').first()).toContainText('system');
  await expect(state.getByRole('term').filter({ hasText: 'Phase' }).locator('xpath=..')).toContainText('summarize');
  // the step that brought the messages lists them as added
  await expect(state.getByRole('list', { name: 'Changes at step' })).toContainText('/transcript');
  await shot(page, '72-scrub-transcript');

  // ← and → on a focused button step too (the scrubber's keys, not the slider's)
  await next.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(heading(state)).toHaveText(`Event ${k - 1} of ${n}`);
  await expect(slider).toHaveValue(String(k - 1));
  await page.keyboard.press('ArrowRight');
  await expect(heading(state)).toHaveText(`Event ${k} of ${n}`);

  // End: back to the last; then Previous step and Next step around it
  await page.keyboard.press('End');
  await expect(heading(state)).toHaveText(`Event ${n} of ${n}`);
  await expect(state).toContainText('run_completed');
  await expect(next).toBeDisabled();
  await page.getByRole('button', { name: 'Previous step' }).click();
  await expect(heading(state)).toHaveText(`Event ${n - 1} of ${n}`);
  await expect(state).not.toContainText('run_completed');
  await next.click();
  await expect(heading(state)).toHaveText(`Event ${n} of ${n}`);
  await page.getByRole('button', { name: 'First step' }).click();
  await expect(heading(state)).toHaveText(`Before the first event (0 of ${n})`);
  await page.getByRole('button', { name: 'Last step' }).click();
  await expect(heading(state)).toHaveText(`Event ${n} of ${n}`);
  expect(errors).toEqual([]);
});

test('a large value shows its preview, and Show all fetches it whole; at 1024 px the scrubber fits', async ({ page, request }) => {
  const errors = watchErrors(page);
  const note = `${'a long note, '.repeat(600)}the end of the note`;
  const { runId, eventCount: n } = await completedRun(request, 'scrub_big', { path: 'report.txt', note });
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto(`/runs/${runId}`);
  const state = page.getByRole('region', { name: 'State at step' });
  const slider = page.getByRole('slider', { name: 'Step' });
  await expect(heading(state)).toHaveText(`Event ${n} of ${n}`);
  // step back until the user message with the note is in the transcript
  await slider.focus();
  await page.keyboard.press('Home');
  // until step 0 arrives the last step stays on screen, and it shows the note: wait for step 0 first
  await expect(heading(state)).toHaveText(`Before the first event (0 of ${n})`);
  const showAll = state.getByRole('button', { name: /^Show all of content of / });
  for (let k = 1; k <= n && (await showAll.count()) === 0; k++) {
    await page.keyboard.press('ArrowRight');
    await expect(heading(state)).toHaveText(`Event ${k} of ${n}`);
  }
  await expect(showAll.first()).toBeVisible();
  const value = state.getByLabel(/^content of .*\/m1$/);
  await expect(value).not.toContainText('the end of the note');
  await expect(state).toContainText('characters');
  await showAll.first().scrollIntoViewIfNeeded();
  await shot(page, '73-scrub-large-folded');
  await showAll.first().click();
  await expect(value).toContainText('the end of the note');
  await shot(page, '74-scrub-large-shown-1024');
  // nothing wider than the window
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(errors).toEqual([]);
});
